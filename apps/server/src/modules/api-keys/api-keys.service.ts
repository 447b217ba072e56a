import {
  API_KEY_NO_NAME,
  API_KEY_NOT_FOUND,
  API_KEY_RECENT_CALLS,
  type ApiKey,
  type ApiKeyLimits,
  type CreatedApiKey,
  type GetApiKeyDetailsResponse,
  microsToUsd,
  usdToMicros,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { changedFields, recordAudit } from "../audit/audit.store";
import { generateApiKey, hashApiKey } from "./api-key-format";
import { monthStartOf } from "./api-key-runtime.service";
import {
  findKeyDetailsRow,
  findLiveKey,
  insertKey,
  type KeyRow,
  listKeyRows,
  listRecentKeyCalls,
  lockKeyRow,
  markKeyRevoked,
  monthKeyOf,
  recountKeySpend,
  setKeyColumns,
} from "./api-keys.store";

const KEY_NOT_FOUND = API_KEY_NOT_FOUND;

function displayName(name: string): string {
  return name.trim() === "" ? API_KEY_NO_NAME : name.trim();
}

/** The limits as stored (micro-dollars, dates), from the wire's dollars and ISO strings. */
function limitColumns(limits: ApiKeyLimits) {
  return {
    allowedEndpoints: limits.endpoints ? [...new Set(limits.endpoints)] : null,
    monthlySpendCapMicros: limits.monthlySpendCap === null ? null : usdToMicros(limits.monthlySpendCap),
    lifetimeSpendCapMicros: limits.lifetimeSpendCap === null ? null : usdToMicros(limits.lifetimeSpendCap),
    expiresAt: limits.expiresAt === null ? null : new Date(limits.expiresAt),
    allowedIps: limits.allowedIps ? [...new Set(limits.allowedIps.map((entry) => entry.trim()))] : null,
    requestsPerMinute: limits.requestsPerMinute,
  };
}

function limitsOf(row: KeyRow): ApiKeyLimits {
  return {
    endpoints: row.allowedEndpoints,
    monthlySpendCap: row.monthlySpendCapMicros === null ? null : microsToUsd(row.monthlySpendCapMicros),
    lifetimeSpendCap: row.lifetimeSpendCapMicros === null ? null : microsToUsd(row.lifetimeSpendCapMicros),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    allowedIps: row.allowedIps,
    requestsPerMinute: row.requestsPerMinute,
  };
}

function toApiKey(
  row: KeyRow,
  creator: { firstName: string; lastName: string } | null,
  spendThisMonthMicros: bigint,
  now = new Date(),
): ApiKey {
  return {
    id: row.id,
    name: row.name,
    lastFourDigits: row.lastFour,
    lastUsed: row.lastUsedAt?.toISOString() ?? null,
    creationDate: row.createdAt.toISOString(),
    creationUserFirstName: creator?.firstName ?? null,
    creationUserLastName: creator?.lastName ?? null,
    limits: limitsOf(row),
    spendThisMonth: microsToUsd(spendThisMonthMicros),
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  };
}

// The console's key calls below run after their declared access (the project, and `apiKeys.create` or
// `apiKeys.delete` where they change a key) was checked by the call's gate.

export async function listApiKeys(db: Database, projectId: string): Promise<ApiKey[]> {
  const rows = await listKeyRows(db, projectId, monthStartOf(new Date()));
  return rows.map((row) =>
    toApiKey(
      row.key,
      row.firstName === null ? null : { firstName: row.firstName, lastName: row.lastName ?? "" },
      BigInt(row.spendThisMonth),
    ),
  );
}

export async function createApiKey(
  db: Database,
  user: { userId: string; firstName: string; lastName: string },
  project: { id: string; organizationId: string },
  name: string,
  limits?: ApiKeyLimits,
): Promise<CreatedApiKey> {
  const projectId = project.id;
  const content = generateApiKey();
  const row = await db.transaction(async (tx) => {
    const inserted = await insertKey(tx, {
      projectId,
      organizationId: project.organizationId,
      name: displayName(name),
      keyHash: hashApiKey(content),
      lastFour: content.slice(-4),
      createdByUserId: user.userId,
      ...(limits ? limitColumns(limits) : {}),
    });
    // The key itself and its hash stay out of the log; its last four characters identify it.
    await recordAudit(tx, {
      organizationId: project.organizationId,
      action: "api-key.created",
      target: { type: "api-key", id: inserted.id },
      after: { name: inserted.name, lastFour: inserted.lastFour, projectId, limits: limitsOf(inserted) },
    });
    return inserted;
  });
  return { ...toApiKey(row, user, 0n), content };
}

async function requireKeyOfProject(db: Database, projectId: string, apiKeyId: string): Promise<KeyRow> {
  if (!isUuid(apiKeyId)) throw new AppError("not-found", KEY_NOT_FOUND);
  const key = await findLiveKey(db, projectId, apiKeyId);
  if (!key) throw new AppError("not-found", KEY_NOT_FOUND);
  return key;
}

/** The audit entries of an update: a rename and a change of limits are separate actions. */
async function recordKeyUpdate(
  tx: Executor,
  key: KeyRow,
  name: string,
  limits: ApiKeyLimits | undefined,
): Promise<void> {
  const target = { type: "api-key", id: key.id };
  if (name !== key.name) {
    await recordAudit(tx, {
      organizationId: key.organizationId,
      action: "api-key.renamed",
      target,
      before: { name: key.name },
      after: { name },
    });
  }
  if (limits) {
    const changes = changedFields(limitsOf(key), { ...limits });
    if (Object.keys(changes.after).length > 0) {
      await recordAudit(tx, {
        organizationId: key.organizationId,
        action: "api-key.limits-changed",
        target,
        ...changes,
      });
    }
  }
}

/** Renames a key and, when `limits` are given, replaces its limits (they take effect on its next call). */
export async function updateApiKey(
  db: Database,
  project: { id: string; organizationId: string },
  apiKeyId: string,
  name: string,
  limits?: ApiKeyLimits,
) {
  const projectId = project.id;
  const key = await requireKeyOfProject(db, projectId, apiKeyId);
  if (!limits) {
    await db.transaction(async (tx) => {
      await setKeyColumns(tx, apiKeyId, { name: displayName(name) });
      await recordKeyUpdate(tx, key, displayName(name), undefined);
    });
    return;
  }
  await db.transaction(async (tx) => {
    // The key's row lock holds off its charging reservations while its spend is recounted (the counters
    // are kept only while a cap is set, so they may be stale until now). The recount reads the key's
    // daily rollup and its open calls, not its history (decision 022). A call authenticated before the
    // save, while the key had no cap, carries no charge and is not in the counters if its reservation
    // commits after the recount: as many calls as were between their authentication and their commit.
    await lockKeyRow(tx, apiKeyId);
    const now = new Date();
    const spent = await recountKeySpend(tx, apiKeyId, monthStartOf(now));
    await setKeyColumns(tx, apiKeyId, {
      name: displayName(name),
      ...limitColumns(limits),
      spentMonth: monthKeyOf(now),
      spentMonthMicros: spent.month,
      spentLifetimeMicros: spent.lifetime,
    });
    await recordKeyUpdate(tx, key, displayName(name), limitsOf({ ...key, ...limitColumns(limits) }));
  });
}

/** One key of the project with its spend and its last calls, for the console's detail drawer. */
export async function getApiKeyDetails(
  db: Database,
  projectId: string,
  apiKeyId: string,
): Promise<GetApiKeyDetailsResponse> {
  if (!isUuid(apiKeyId)) throw new AppError("not-found", KEY_NOT_FOUND);
  const now = new Date();
  const row = await findKeyDetailsRow(db, projectId, apiKeyId, monthStartOf(now));
  if (!row) throw new AppError("not-found", KEY_NOT_FOUND);
  const calls = await listRecentKeyCalls(db, apiKeyId, API_KEY_RECENT_CALLS);
  return {
    apiKey: toApiKey(
      row.key,
      row.firstName === null ? null : { firstName: row.firstName, lastName: row.lastName ?? "" },
      BigInt(row.spendThisMonth),
      now,
    ),
    spendLifetime: microsToUsd(BigInt(row.spendLifetime)),
    recentCalls: calls.map((call) => ({
      requestId: call.id,
      endpoint: call.endpoint,
      status: call.status,
      cost: call.status === "error" ? 0 : microsToUsd(call.priceMicros),
      createdAt: call.createdAt.toISOString(),
      clientIp: call.clientIp,
    })),
  };
}

export async function revokeApiKey(db: Database, projectId: string, apiKeyId: string) {
  const key = await requireKeyOfProject(db, projectId, apiKeyId);
  await db.transaction(async (tx) => {
    // A parallel delete got there first: nothing changed, so nothing is recorded.
    if (!(await markKeyRevoked(tx, apiKeyId))) return;
    await recordAudit(tx, {
      organizationId: key.organizationId,
      action: "api-key.deleted",
      target: { type: "api-key", id: apiKeyId },
      before: { name: key.name, lastFour: key.lastFour, projectId },
    });
  });
}

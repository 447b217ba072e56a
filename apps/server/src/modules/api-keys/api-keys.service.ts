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
import { isUuid, requirePermission, requireProjectAccess } from "../access/access.service";
import { changedFields, recordAudit } from "../audit/audit.store";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key-format";
import {
  findActiveKeyByHash,
  findKeyDetailsRow,
  findKeySpendRow,
  findLiveKey,
  insertKey,
  type KeyRow,
  keySpendCharge,
  listKeyRows,
  listRecentKeyCalls,
  lockKeyRow,
  markKeyRevoked,
  monthKeyOf,
  recountKeySpend,
  setKeyColumns,
  touchKeyLastUsed,
} from "./api-keys.store";

const KEY_NOT_FOUND = API_KEY_NOT_FOUND;
/** `last used` is written at most this often per key, so busy keys do not turn every call into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

function displayName(name: string): string {
  return name.trim() === "" ? API_KEY_NO_NAME : name.trim();
}

/** The first moment of the calendar month (UTC) that `now` is in: spend caps reset then. */
export function monthStartOf(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
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

export async function listApiKeys(db: Database, userId: string, projectId: string): Promise<ApiKey[]> {
  await requireProjectAccess(db, userId, projectId);
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
  projectId: string,
  name: string,
  limits?: ApiKeyLimits,
): Promise<CreatedApiKey> {
  const { project, membership } = await requireProjectAccess(db, user.userId, projectId);
  requirePermission(membership, "apiKeys.create");
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
  userId: string,
  projectId: string,
  apiKeyId: string,
  name: string,
  limits?: ApiKeyLimits,
) {
  const { membership } = await requireProjectAccess(db, userId, projectId);
  requirePermission(membership, "apiKeys.create");
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
  userId: string,
  projectId: string,
  apiKeyId: string,
): Promise<GetApiKeyDetailsResponse> {
  await requireProjectAccess(db, userId, projectId);
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

export async function revokeApiKey(db: Database, userId: string, projectId: string, apiKeyId: string) {
  const { membership } = await requireProjectAccess(db, userId, projectId);
  requirePermission(membership, "apiKeys.delete");
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

/** The limits of an authenticated key, as the gateway checks them (null: none). */
export interface ApiKeyRules {
  allowedEndpoints: string[] | null;
  monthlySpendCapMicros: bigint | null;
  lifetimeSpendCapMicros: bigint | null;
  allowedIps: string[] | null;
  requestsPerMinute: number | null;
  /** The spend counters as read with the key (see chargeKeySpend), for the check before the body. */
  spentMonth: string | null;
  spentMonthMicros: bigint;
  spentLifetimeMicros: bigint;
}

/** The key's organization's money state, read with the key (see findActiveKeyByHash). */
export interface KeyOrganizationState {
  balanceMicros: bigint;
  isNew: boolean;
  callsInFlight: number;
  /** Only read when the authentication asked for it; false otherwise. */
  budgetReached: boolean;
}

export interface ApiKeyPrincipal {
  apiKeyId: string;
  projectId: string;
  organizationId: string;
  rules: ApiKeyRules;
  organizationState: KeyOrganizationState;
}

export type ApiKeyAuthentication =
  | { status: "valid"; principal: ApiKeyPrincipal }
  | { status: "expired" }
  | { status: "invalid" };

export type BrokenCap = { cap: "monthly" | "lifetime"; capMicros: bigint };

/** Which cap a call of `priceMicros` would break, judged from the counters read with the key. */
export function capBrokenBy(
  rules: ApiKeyRules,
  priceMicros: bigint,
  now = new Date(),
): BrokenCap | undefined {
  const month = rules.spentMonth === monthKeyOf(now) ? rules.spentMonthMicros : 0n;
  if (rules.monthlySpendCapMicros !== null && month + priceMicros > rules.monthlySpendCapMicros) {
    return { cap: "monthly", capMicros: rules.monthlySpendCapMicros };
  }
  if (
    rules.lifetimeSpendCapMicros !== null &&
    rules.spentLifetimeMicros + priceMicros > rules.lifetimeSpendCapMicros
  ) {
    return { cap: "lifetime", capMicros: rules.lifetimeSpendCapMicros };
  }
  return undefined;
}

/**
 * Adds `priceMicros` to the key's spend if, and only if, it stays within the key's caps: one
 * conditional UPDATE in the reservation's transaction, so concurrent calls of the key can never
 * overshoot a cap (the row stays locked until the reservation commits or rolls back). Keys without a
 * cap are left alone. Returns the cap the call would break, if any.
 */
export async function chargeKeySpend(
  tx: Executor,
  apiKeyId: string,
  priceMicros: bigint,
  now = new Date(),
): Promise<BrokenCap | undefined> {
  const charged = await keySpendCharge(tx, apiKeyId, priceMicros, now);
  if (charged.length > 0) return undefined;
  return keyCapBrokenBy(tx, apiKeyId, priceMicros, now);
}

/** Which cap a call of `priceMicros` breaks, read from the key's row (after its charge was refused). */
export async function keyCapBrokenBy(
  tx: Executor,
  apiKeyId: string,
  priceMicros: bigint,
  now = new Date(),
): Promise<BrokenCap | undefined> {
  const row = await findKeySpendRow(tx, apiKeyId);
  if (!row) return undefined;
  return capBrokenBy(
    { ...row, allowedEndpoints: null, allowedIps: null, requestsPerMinute: null },
    priceMicros,
    now,
  );
}

/**
 * Authenticates a Bearer key for the public API: well-formed, known, not revoked, not expired, and its
 * project and organization still active. Refreshes `last used` at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now = new Date(),
  options: { readBudgetStop?: boolean } = {},
): Promise<ApiKeyAuthentication> {
  if (!isWellFormedApiKey(key)) return { status: "invalid" };
  const row = await findActiveKeyByHash(db, hashApiKey(key), options.readBudgetStop);
  if (!row) return { status: "invalid" };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { status: "expired" };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchKeyLastUsed(db, row.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
  }
  return {
    status: "valid",
    principal: {
      apiKeyId: row.id,
      projectId: row.projectId,
      organizationId: row.organizationId,
      organizationState: {
        ...row.organizationState,
        budgetReached: row.organizationState.budgetReached === true,
      },
      rules: {
        allowedEndpoints: row.allowedEndpoints,
        monthlySpendCapMicros: row.monthlySpendCapMicros,
        lifetimeSpendCapMicros: row.lifetimeSpendCapMicros,
        allowedIps: row.allowedIps,
        requestsPerMinute: row.requestsPerMinute,
        spentMonth: row.spentMonth,
        spentMonthMicros: row.spentMonthMicros,
        spentLifetimeMicros: row.spentLifetimeMicros,
      },
    },
  };
}

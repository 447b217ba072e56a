import {
  API_KEY_NO_NAME,
  API_KEY_RECENT_CALLS,
  type ApiKey,
  type ApiKeyLimits,
  type CreatedApiKey,
  type GetApiKeyDetailsResponse,
  microsToUsd,
  usdToMicros,
} from "@prism/contract";
import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client";
import { apiKeys, featureRequests, organizations, projects, users } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid, requirePermission, requireProjectAccess } from "../access/access.service";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key-format";

const KEY_NOT_FOUND = "API key not found.";
/** `last used` is written at most this often per key, so busy keys do not turn every call into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

function displayName(name: string): string {
  return name.trim() === "" ? API_KEY_NO_NAME : name.trim();
}

type KeyRow = typeof apiKeys.$inferSelect;

/** The first moment of the calendar month (UTC) that `now` is in: spend caps reset then. */
export function monthStartOf(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * What a key's calls cost since `since` (all time when absent), as SQL over the key's id: calls in
 * flight count (their price is reserved), failed calls do not (they were refunded).
 */
function spendOf(apiKeyId: SQL | string | typeof apiKeys.id, since?: Date) {
  return sql<string>`(select coalesce(sum(${featureRequests.priceMicros}), 0) from ${featureRequests}
    where ${featureRequests.apiKeyId} = ${apiKeyId} and ${featureRequests.status} <> 'error'
      ${since ? sql`and ${featureRequests.createdAt} >= ${since}` : sql``})`;
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
  const rows = await db
    .select({
      key: apiKeys,
      firstName: users.firstName,
      lastName: users.lastName,
      spendThisMonth: spendOf(apiKeys.id, monthStartOf(new Date())),
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
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
  const [row] = await db
    .insert(apiKeys)
    .values({
      projectId,
      organizationId: project.organizationId,
      name: displayName(name),
      keyHash: hashApiKey(content),
      lastFour: content.slice(-4),
      createdByUserId: user.userId,
      ...(limits ? limitColumns(limits) : {}),
    })
    .returning();
  if (!row) throw new Error("api key insert returned no row");
  return { ...toApiKey(row, user, 0n), content };
}

async function requireKeyOfProject(db: Database, projectId: string, apiKeyId: string) {
  if (!isUuid(apiKeyId)) throw new AppError("not-found", KEY_NOT_FOUND);
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (rows.length === 0) throw new AppError("not-found", KEY_NOT_FOUND);
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
  const { project, membership } = await requireProjectAccess(db, userId, projectId);
  requirePermission(membership, "apiKeys.create");
  await requireKeyOfProject(db, projectId, apiKeyId);
  if (!limits) {
    await db
      .update(apiKeys)
      .set({ name: displayName(name) })
      .where(eq(apiKeys.id, apiKeyId));
    return;
  }
  await db.transaction(async (tx) => {
    // The organization's row lock holds off the key's reservations while its spend is recounted from
    // the request log (the counters are kept only while a cap is set, so they may be stale until now).
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, project.organizationId))
      .for("update");
    const now = new Date();
    const [spent] = await tx
      .select({ month: spendOf(apiKeyId, monthStartOf(now)), lifetime: spendOf(apiKeyId) })
      .from(sql`(select 1) as one`);
    await tx
      .update(apiKeys)
      .set({
        name: displayName(name),
        ...limitColumns(limits),
        spentMonth: monthKeyOf(now),
        spentMonthMicros: BigInt(spent?.month ?? 0),
        spentLifetimeMicros: BigInt(spent?.lifetime ?? 0),
      })
      .where(eq(apiKeys.id, apiKeyId));
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
  const [row] = await db
    .select({
      key: apiKeys,
      firstName: users.firstName,
      lastName: users.lastName,
      spendThisMonth: spendOf(apiKeys.id, monthStartOf(now)),
      spendLifetime: spendOf(apiKeys.id),
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) throw new AppError("not-found", KEY_NOT_FOUND);
  const calls = await db
    .select({
      id: featureRequests.id,
      endpoint: featureRequests.endpoint,
      status: featureRequests.status,
      priceMicros: featureRequests.priceMicros,
      createdAt: featureRequests.createdAt,
      clientIp: featureRequests.clientIp,
    })
    .from(featureRequests)
    .where(eq(featureRequests.apiKeyId, apiKeyId))
    .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id))
    .limit(API_KEY_RECENT_CALLS);
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
  await requireKeyOfProject(db, projectId, apiKeyId);
  await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, apiKeyId));
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

export interface ApiKeyPrincipal {
  apiKeyId: string;
  projectId: string;
  organizationId: string;
  rules: ApiKeyRules;
}

export type ApiKeyAuthentication =
  | { status: "valid"; principal: ApiKeyPrincipal }
  | { status: "expired" }
  | { status: "invalid" };

/** The UTC month a moment falls in, as the key's spend counters name it ("2026-11"). */
export function monthKeyOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

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
  const month = monthKeyOf(now);
  const monthSpent = sql`(case when ${apiKeys.spentMonth} = ${month} then ${apiKeys.spentMonthMicros} else 0 end)`;
  const charged = await tx
    .update(apiKeys)
    .set({
      spentMonthMicros: sql`${monthSpent} + ${priceMicros}`,
      spentMonth: month,
      spentLifetimeMicros: sql`${apiKeys.spentLifetimeMicros} + ${priceMicros}`,
    })
    .where(
      and(
        eq(apiKeys.id, apiKeyId),
        sql`(${apiKeys.monthlySpendCapMicros} is not null or ${apiKeys.lifetimeSpendCapMicros} is not null)`,
        sql`(${apiKeys.monthlySpendCapMicros} is null or ${monthSpent} + ${priceMicros} <= ${apiKeys.monthlySpendCapMicros})`,
        sql`(${apiKeys.lifetimeSpendCapMicros} is null or ${apiKeys.spentLifetimeMicros} + ${priceMicros} <= ${apiKeys.lifetimeSpendCapMicros})`,
      ),
    )
    .returning({ id: apiKeys.id });
  if (charged.length > 0) return undefined;
  const [row] = await tx
    .select({
      monthlySpendCapMicros: apiKeys.monthlySpendCapMicros,
      lifetimeSpendCapMicros: apiKeys.lifetimeSpendCapMicros,
      spentMonth: apiKeys.spentMonth,
      spentMonthMicros: apiKeys.spentMonthMicros,
      spentLifetimeMicros: apiKeys.spentLifetimeMicros,
    })
    .from(apiKeys)
    .where(eq(apiKeys.id, apiKeyId));
  if (!row) return undefined;
  return capBrokenBy(
    { ...row, allowedEndpoints: null, allowedIps: null, requestsPerMinute: null },
    priceMicros,
    now,
  );
}

/**
 * Takes a refunded call's price back off its key's spend (in the refund's transaction): the month's
 * counter only while it still counts the call's month. Keys without a cap keep no counters.
 */
export async function releaseKeySpend(tx: Executor, requestId: string): Promise<void> {
  await tx.execute(sql`update ${apiKeys} set
      spent_lifetime_micros = greatest(0, ${apiKeys.spentLifetimeMicros} - ${featureRequests.priceMicros}),
      spent_month_micros = case
        when ${apiKeys.spentMonth} = to_char(${featureRequests.createdAt} at time zone 'UTC', 'YYYY-MM')
        then greatest(0, ${apiKeys.spentMonthMicros} - ${featureRequests.priceMicros})
        else ${apiKeys.spentMonthMicros} end
    from ${featureRequests}
    where ${featureRequests.id} = ${requestId} and ${apiKeys.id} = ${featureRequests.apiKeyId}
      and (${apiKeys.monthlySpendCapMicros} is not null or ${apiKeys.lifetimeSpendCapMicros} is not null)`);
}

/**
 * Authenticates a Bearer key for the public API: well-formed, known, not revoked, not expired, and its
 * project and organization still active. Refreshes `last used` at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now = new Date(),
): Promise<ApiKeyAuthentication> {
  if (!isWellFormedApiKey(key)) return { status: "invalid" };
  const rows = await db
    .select({
      id: apiKeys.id,
      projectId: apiKeys.projectId,
      organizationId: apiKeys.organizationId,
      lastUsedAt: apiKeys.lastUsedAt,
      expiresAt: apiKeys.expiresAt,
      allowedEndpoints: apiKeys.allowedEndpoints,
      monthlySpendCapMicros: apiKeys.monthlySpendCapMicros,
      lifetimeSpendCapMicros: apiKeys.lifetimeSpendCapMicros,
      allowedIps: apiKeys.allowedIps,
      requestsPerMinute: apiKeys.requestsPerMinute,
      spentMonth: apiKeys.spentMonth,
      spentMonthMicros: apiKeys.spentMonthMicros,
      spentLifetimeMicros: apiKeys.spentLifetimeMicros,
    })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(
      and(
        eq(apiKeys.keyHash, hashApiKey(key)),
        isNull(apiKeys.revokedAt),
        isNull(projects.archivedAt),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return { status: "invalid" };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { status: "expired" };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, row.id),
          sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} <= ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`,
        ),
      );
  }
  return {
    status: "valid",
    principal: {
      apiKeyId: row.id,
      projectId: row.projectId,
      organizationId: row.organizationId,
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

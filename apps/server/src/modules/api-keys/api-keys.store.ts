import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { apiKeys, featureRequests, organizations, projects, usageDailyKeys, users } from "../../db/schema";
import { budgetReached } from "../alerts/alerts.store";

/** Data access of the api-keys module: keys, their spend counters and the calls made with them. */

export type KeyRow = typeof apiKeys.$inferSelect;
export type KeyValues = typeof apiKeys.$inferInsert;

/** The UTC month a moment falls in, as the key's spend counters name it ("2026-11"). */
export function monthKeyOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/**
 * What a key's calls cost since `since` (a month's first moment, UTC; all time when absent), as SQL over
 * the key's id: its settled calls from its daily rollup (one row per day it was used, keyed by the day
 * each call was made) plus the calls still queued or running, whose price is reserved (decision 022).
 * Failed and canceled calls were refunded and count nowhere. Both parts are read in one statement, so a
 * call settling meanwhile is counted once, on one side or the other.
 */
function spendOf(apiKeyId: SQL | string | typeof apiKeys.id, since?: Date) {
  const sinceDay = since?.toISOString().slice(0, 10);
  return sql<string>`((select coalesce(sum(${usageDailyKeys.costMicros}), 0) from ${usageDailyKeys}
      where ${usageDailyKeys.apiKeyId} = ${apiKeyId} ${sinceDay ? sql`and ${usageDailyKeys.day} >= ${sinceDay}::date` : sql``})
    + (select coalesce(sum(${featureRequests.priceMicros}), 0) from ${featureRequests}
      where ${featureRequests.apiKeyId} = ${apiKeyId} and ${featureRequests.status} in ('queued', 'generating')
        ${since ? sql`and ${featureRequests.createdAt} >= ${since}` : sql``}))`;
}

/** The project's live keys, oldest first, with their creator's name and their spend since `monthStart`. */
export function listKeyRows(db: Executor, projectId: string, monthStart: Date) {
  return db
    .select({
      key: apiKeys,
      firstName: users.firstName,
      lastName: users.lastName,
      spendThisMonth: spendOf(apiKeys.id, monthStart),
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

export async function insertKey(tx: Executor, values: KeyValues): Promise<KeyRow> {
  const [inserted] = await tx.insert(apiKeys).values(values).returning();
  if (!inserted) throw new Error("api key insert returned no row");
  return inserted;
}

/** A live (not revoked) key of the project. */
export async function findLiveKey(db: Executor, projectId: string, apiKeyId: string) {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return key;
}

/** A live key of the project with its creator's name and its spend, this month and all time. */
export async function findKeyDetailsRow(db: Executor, projectId: string, apiKeyId: string, monthStart: Date) {
  const [row] = await db
    .select({
      key: apiKeys,
      firstName: users.firstName,
      lastName: users.lastName,
      spendThisMonth: spendOf(apiKeys.id, monthStart),
      spendLifetime: spendOf(apiKeys.id),
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/** The key's last `limit` calls, newest first. */
export function listRecentKeyCalls(db: Executor, apiKeyId: string, limit: number) {
  return db
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
    .limit(limit);
}

export async function setKeyColumns(
  tx: Executor,
  apiKeyId: string,
  values: Partial<Omit<KeyValues, "id">>,
): Promise<void> {
  await tx.update(apiKeys).set(values).where(eq(apiKeys.id, apiKeyId));
}

/**
 * Locks the key's row for the recount of its spend: a reservation that charges the key (it has a cap)
 * updates this row in its own statement, so it either committed before the lock (and the recount sees
 * its call) or waits for the recount and adds its price to the counters written. The organization's row
 * is left alone: the organization's other calls never wait for a key's limits being saved.
 */
export async function lockKeyRow(tx: Executor, apiKeyId: string): Promise<void> {
  await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, apiKeyId)).for("update");
}

/**
 * The key's spend recounted, since `monthStart` and all time: from its daily rollup and its open calls
 * (`spendOf`), so it reads one row per day the key was used plus its calls in flight, never its history.
 */
export async function recountKeySpend(
  tx: Executor,
  apiKeyId: string,
  monthStart: Date,
): Promise<{ month: bigint; lifetime: bigint }> {
  const [spent] = await tx
    .select({ month: spendOf(apiKeyId, monthStart), lifetime: spendOf(apiKeyId) })
    .from(sql`(select 1) as one`);
  return { month: BigInt(spent?.month ?? 0), lifetime: BigInt(spent?.lifetime ?? 0) };
}

/**
 * Revokes every live key `userId` created in the organization (their membership ends in the same
 * transaction), returning what the audit log names of each.
 */
export function revokeKeysCreatedBy(tx: Executor, organizationId: string, userId: string) {
  return tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        eq(apiKeys.createdByUserId, userId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({
      id: apiKeys.id,
      name: apiKeys.name,
      lastFour: apiKeys.lastFour,
      projectId: apiKeys.projectId,
    });
}

/** Revokes a live key; false when it was revoked already (a parallel delete got there first). */
export async function markKeyRevoked(tx: Executor, apiKeyId: string): Promise<boolean> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, apiKeyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}

/**
 * Adds `priceMicros` to the key's spend counters if, and only if, they stay within the key's caps: one
 * conditional UPDATE (`returning id`, a row when the key was charged), to await or to embed in a
 * larger statement. Keys without a cap are left alone.
 */
export function keySpendCharge(tx: Executor, apiKeyId: string, priceMicros: bigint, now = new Date()) {
  const month = monthKeyOf(now);
  const monthSpent = sql`(case when ${apiKeys.spentMonth} = ${month} then ${apiKeys.spentMonthMicros} else 0 end)`;
  return tx
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
}

/** The key's caps and spend counters. */
export async function findKeySpendRow(tx: Executor, apiKeyId: string) {
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
  return row;
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
 * The unrevoked key with this hash, when its project and organization are still active, with the
 * organization's money state read in the same statement (a feature call's admission needs it, and the
 * organization's row is joined anyway), and with `readBudgetStop` whether its budget stops calls now.
 */
export async function findActiveKeyByHash(db: Executor, keyHash: string, readBudgetStop = false) {
  const [row] = await db
    .select({
      organizationState: {
        balanceMicros: organizations.balanceMicros,
        isNew: organizations.isNew,
        callsInFlight: organizations.callsInFlight,
        budgetReached: readBudgetStop ? budgetReached(apiKeys.organizationId) : sql<boolean>`false`,
      },
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
        eq(apiKeys.keyHash, keyHash),
        isNull(apiKeys.revokedAt),
        isNull(projects.archivedAt),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  return row;
}

/** Sets the key's `last used` to `now` unless it was set after `staleBefore` (by a parallel call). */
export async function touchKeyLastUsed(db: Executor, apiKeyId: string, now: Date, staleBefore: Date) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, apiKeyId),
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} <= ${staleBefore})`,
      ),
    );
}

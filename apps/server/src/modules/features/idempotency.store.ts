import type { FeatureCallResponse, RequestDetail } from "@prism/contract";
import { and, eq, lte, or } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idempotencyKeys } from "../../db/schema";

/** Data access of `Idempotency-Key`: one row per (scope, key), claimed by an insert under that key. */

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

interface KeyName {
  scope: string;
  key: string;
}

const identifies = (name: KeyName) =>
  and(eq(idempotencyKeys.scope, name.scope), eq(idempotencyKeys.key, name.key));

/** Inserts the key as `running` unless a row holds it already; true when this call claimed it. */
export async function insertRunningKey(
  db: Database,
  input: KeyName & { requestHash: string; expiresAt: Date },
): Promise<boolean> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      scope: input.scope,
      key: input.key,
      requestHash: input.requestHash,
      status: "running",
      expiresAt: input.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

export async function findKey(db: Database, name: KeyName): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(identifies(name)).limit(1);
  return row;
}

/**
 * Deletes the key if it is stale at `now`: past its retention, or still `running` since before
 * `runningSince` (its process crashed). The condition is in the statement, so a key another caller
 * took over meanwhile stays.
 */
export async function deleteStaleKey(
  db: Database,
  name: KeyName,
  input: { now: Date; runningSince: Date },
): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        identifies(name),
        or(
          lte(idempotencyKeys.expiresAt, input.now),
          and(eq(idempotencyKeys.status, "running"), lte(idempotencyKeys.createdAt, input.runningSince)),
        ),
      ),
    );
}

/** Stores the answer of the call that claimed `key`, for its retries. */
export async function completeIdempotencyKey(
  db: Database,
  input: KeyName,
  status: number,
  body: FeatureCallResponse | RequestDetail,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: "done", responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.scope, input.scope), eq(idempotencyKeys.key, input.key)));
}

/** Gives a key back after its call failed (and was refunded), so that a retry runs again. */
export async function releaseIdempotencyKey(db: Database, input: KeyName): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.scope, input.scope),
        eq(idempotencyKeys.key, input.key),
        eq(idempotencyKeys.status, "running"),
      ),
    );
}

/** Deletes the keys past their retention; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

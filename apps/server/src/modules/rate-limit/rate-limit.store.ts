import { eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { rateLimitBuckets } from "../../db/schema";

/**
 * Counts `cost` hits on a fixed-window bucket in one upsert (a window older than `windowStart` starts
 * again at `now`), so concurrent requests from several server processes cannot both slip under a
 * limit. Answers the bucket after the hit.
 */
export function countHit(
  db: Executor,
  input: { key: string; cost: number; now: Date; windowStart: Date },
): Promise<{ hits: number; windowStartedAt: Date }[]> {
  const { key, cost, now, windowStart } = input;
  return db
    .insert(rateLimitBuckets)
    .values({ key, hits: cost, windowStartedAt: now })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then ${cost} else ${rateLimitBuckets.hits} + ${cost} end`,
        windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({ hits: rateLimitBuckets.hits, windowStartedAt: rateLimitBuckets.windowStartedAt });
}

export async function deleteBucket(db: Executor, key: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/** Deletes the buckets whose window started before `cutoff`, answering how many went. */
export async function deleteBucketsStartedBefore(db: Executor, cutoff: Date): Promise<number> {
  const deleted = await db
    .delete(rateLimitBuckets)
    .where(lt(rateLimitBuckets.windowStartedAt, cutoff))
    .returning({ key: rateLimitBuckets.key });
  return deleted.length;
}

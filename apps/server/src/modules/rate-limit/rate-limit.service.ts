import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { rateLimitBuckets } from "../../db/schema";
import { AppError } from "../../errors";

export interface RateLimitRule {
  /** What is being limited, e.g. "login:ip". */
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts one hit against `rule` for `subject` (an IP, an email) in a fixed window, with a single
 * upsert so concurrent requests from several processes cannot both slip under the limit.
 */
export async function consumeRateLimit(
  db: Executor,
  rule: RateLimitRule,
  subject: string,
  now = new Date(),
): Promise<void> {
  const key = `${rule.name}:${subject}`;
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const rows = await db
    .insert(rateLimitBuckets)
    .values({ key, hits: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({ hits: rateLimitBuckets.hits, windowStartedAt: rateLimitBuckets.windowStartedAt });
  const bucket = rows[0];
  if (bucket && bucket.hits > rule.limit) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((bucket.windowStartedAt.getTime() + rule.windowMs - now.getTime()) / 1000),
    );
    throw new AppError(
      "rate-limited",
      `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
    );
  }
}

import { apiKeyRateLimitedText } from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { countHit, deleteBucket, deleteBucketsStartedBefore } from "./rate-limit.store";

export interface RateLimitRule {
  /** What is being limited, e.g. "login:ip". */
  name: string;
  limit: number;
  windowMs: number;
}

/** Where a subject stands in its current window, after the hit just counted. */
export interface RateLimitState {
  /** The rule's limit for the window. */
  limit: number;
  /** Hits left in this window (0 once limited). */
  remaining: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  resetSeconds: number;
  /** This hit went over the limit and must be refused. */
  limited: boolean;
}

/**
 * Counts `cost` hits (one call, or e.g. the number of mails it sends) against `rule` for `subject` (an
 * IP, an email, an API key) in a fixed window, with a single upsert so concurrent requests from several
 * server processes cannot both slip under the limit. Returns the state rather than throwing, so each
 * caller answers in its own words and headers (a 429 with Retry-After, RateLimit fields).
 */
/**
 * How long a bucket is kept after its window started. No rule's window may be longer (hitRateLimit
 * refuses one), so a bucket this old has run out and would start again at its next hit: deleting it
 * changes no count. Without this, every address and email that ever signed in keeps a row.
 */
export const RATE_LIMIT_BUCKET_RETENTION_MS = 24 * 3_600_000;

/** Deletes the buckets whose window ran out (the request sweeper calls it); answers how many went. */
export function deleteExpiredRateLimitBuckets(db: Executor, now = new Date()): Promise<number> {
  return deleteBucketsStartedBefore(db, new Date(now.getTime() - RATE_LIMIT_BUCKET_RETENTION_MS));
}

export async function hitRateLimit(
  db: Executor,
  rule: RateLimitRule,
  subject: string,
  now = new Date(),
  cost = 1,
): Promise<RateLimitState> {
  if (rule.windowMs > RATE_LIMIT_BUCKET_RETENTION_MS)
    throw new Error(`Rate limit ${rule.name}: a window longer than the buckets are kept`);
  const key = `${rule.name}:${subject}`;
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const rows = await countHit(db, { key, cost, now, windowStart });
  const bucket = rows[0] ?? { hits: 1, windowStartedAt: now };
  return {
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - bucket.hits),
    resetSeconds: Math.max(
      1,
      Math.ceil((bucket.windowStartedAt.getTime() + rule.windowMs - now.getTime()) / 1000),
    ),
    limited: bucket.hits > rule.limit,
  };
}

/**
 * Counts `cost` hits and refuses them (429 `rate-limited` with Retry-After) when they go over the
 * limit: the sign-in and mail throttles.
 */
export async function consumeRateLimit(
  db: Executor,
  rule: RateLimitRule,
  subject: string,
  now = new Date(),
  cost = 1,
): Promise<void> {
  const state = await hitRateLimit(db, rule, subject, now, cost);
  if (state.limited) {
    throw new AppError(
      "rate-limited",
      `Too many attempts. Please wait ${state.resetSeconds} seconds and try again.`,
      { headers: { "retry-after": String(state.resetSeconds) } },
    );
  }
}

/** The name of the one quota policy the RateLimit fields describe: an API key's requests per minute. */
export const RATE_LIMIT_POLICY_NAME = "default";

/**
 * The IETF RateLimit header fields, as API keys' answers carry them, in both generations clients read:
 * the current draft's (draft-ietf-httpapi-ratelimit-headers-08 on: `RateLimit-Policy: "default";q=600;w=60`
 * for the quota and its window, `RateLimit: "default";r=599;t=42` for what remains and the seconds until
 * the window resets, both structured fields) and the earlier drafts' `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset`, which most client libraries still look for.
 */
export function rateLimitHeaders(state: RateLimitState, windowSeconds = 60): Record<string, string> {
  const policy = `"${RATE_LIMIT_POLICY_NAME}"`;
  return {
    ratelimit: `${policy};r=${state.remaining};t=${state.resetSeconds}`,
    "ratelimit-policy": `${policy};q=${state.limit};w=${windowSeconds}`,
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.resetSeconds),
  };
}

/** The counter of each API key's requests (one row per key in rate_limit_buckets). */
export const API_KEY_REQUESTS_RULE_NAME = "api-key-requests";
const MINUTE_MS = 60_000;

/**
 * Counts one request of an API key against its allowance per minute (0 for none) and refuses it over
 * the limit with 429 `rate-limited`, `Retry-After` and the RateLimit fields. The count
 * lives in the database, so every server process shares it. Returns where the key stands, for callers
 * that report it.
 */
export async function limitApiKeyRequests(
  db: Executor,
  apiKeyId: string,
  perMinute: number,
  now = new Date(),
): Promise<RateLimitState | undefined> {
  if (perMinute <= 0) return undefined;
  const state = await hitRateLimit(
    db,
    { name: API_KEY_REQUESTS_RULE_NAME, limit: perMinute, windowMs: MINUTE_MS },
    apiKeyId,
    now,
  );
  if (state.limited) {
    throw new AppError("rate-limited", apiKeyRateLimitedText(state.resetSeconds), {
      headers: { "retry-after": String(state.resetSeconds), ...rateLimitHeaders(state) },
    });
  }
  return state;
}

/** Forgets `subject`'s count for `rule`: a success that proves the caller (a right second factor). */
export async function clearRateLimit(db: Executor, rule: RateLimitRule, subject: string): Promise<void> {
  await deleteBucket(db, `${rule.name}:${subject}`);
}

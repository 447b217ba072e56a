import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../test/test-database";
import type { DatabaseHandle } from "../../db/client";
import { rateLimitBuckets } from "../../db/schema";
import {
  deleteExpiredRateLimitBuckets,
  hitRateLimit,
  RATE_LIMIT_BUCKET_RETENTION_MS,
} from "./rate-limit.service";

const HOUR_MS = 3_600_000;
const rule = { name: "test:ip", limit: 2, windowMs: HOUR_MS };

describe("throttling buckets", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("deletes the buckets whose window ran out and keeps the counts of the live ones", async () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const longAgo = new Date(now.getTime() - RATE_LIMIT_BUCKET_RETENTION_MS - 1_000);
    for (let address = 0; address < 50; address += 1)
      await hitRateLimit(database.db, rule, `10.0.0.${address}`, longAgo);
    await hitRateLimit(database.db, rule, "192.0.2.1", now);
    await hitRateLimit(database.db, rule, "192.0.2.1", now);

    expect(await deleteExpiredRateLimitBuckets(database.db, now)).toBe(50);
    const left = await database.db.select().from(rateLimitBuckets);
    expect(left.map((bucket) => [bucket.key, bucket.hits])).toEqual([["test:ip:192.0.2.1", 2]]);
    // The live bucket still counts: a third hit in its window is over the limit.
    expect((await hitRateLimit(database.db, rule, "192.0.2.1", now)).limited).toBe(true);
  });

  it("refuses a rule whose window outlives the buckets", async () => {
    await expect(
      hitRateLimit(database.db, { ...rule, windowMs: RATE_LIMIT_BUCKET_RETENTION_MS + 1 }, "192.0.2.2"),
    ).rejects.toThrow(/longer than the buckets are kept/);
  });
});

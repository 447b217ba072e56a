import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore } from "../../test/migration-fixture";
import { rowsOf } from "./client";

const MIGRATION = "0023_key_spend_from_rollup";

/**
 * Migration 0023 on a database holding calls from before it (decision 022): the rollups counted a call
 * on the day it settled; afterwards they count it on the day it was made, totals unchanged.
 */
describe("migration 0023 moves settled calls to the day they were made", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it("re-keys the project's and the key's rollup rows, on PGlite or on DATABASE_URL's PostgreSQL", async () => {
    const before = await databaseBefore(MIGRATION);
    cleanup.push(() => before.close());
    const db = before.database.db;

    // Before 0023: three calls of one key, one made at 23:59:59 on 31 October and settled on 1 November,
    // one made and settled on 1 November, one failed; the rollups as the settlement wrote them.
    await db.execute(
      sql`insert into organizations (id, name) values ('00000000-0000-4000-8000-000000000001', 'Old')`,
    );
    await db.execute(sql`insert into projects (id, organization_id, name)
      values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'Default')`);
    await db.execute(sql`insert into api_keys (id, project_id, organization_id, name, key_hash, last_four)
      values ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002',
        '00000000-0000-4000-8000-000000000001', 'old key', 'hash', 'abcd')`);
    await db.execute(sql`insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type,
        status, provider, request_files, request_body, units, price_micros, created_at, completed_at)
      select '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
        '00000000-0000-4000-8000-000000000003', '/v1/images/upscaling', 'upscaling', status, 'http', '{}', '{}',
        units, price, created::timestamptz, completed::timestamptz
      from (values ('done', 2, 30000, '2026-10-31T23:59:59Z', '2026-11-01T00:00:03Z'),
        ('done', 1, 10000, '2026-11-01T10:00:00Z', '2026-11-01T10:00:02Z'),
        ('error', 1, 10000, '2026-10-31T23:59:58Z', '2026-11-01T00:00:01Z'))
        as call(status, units, price, created, completed)`);
    await db.execute(sql`insert into usage_daily (project_id, endpoint, call_type, day, units, cost_micros, calls)
      values ('00000000-0000-4000-8000-000000000002', '/v1/images/upscaling', 'upscaling', '2026-11-01', 3, 40000, 2)`);
    await db.execute(sql`insert into usage_daily_keys (project_id, api_key_id, day, units, cost_micros, calls)
      values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003', '2026-11-01', 3, 40000, 2)`);

    await before.migrateRest();

    const project = rowsOf<{ day: string; units: string; cost: string; calls: number }>(
      await db.execute(sql`select day::text as day, units::text as units, cost_micros::text as cost, calls
        from usage_daily order by day`),
    );
    expect(project).toEqual([
      { day: "2026-10-31", units: "2", cost: "30000", calls: 1 },
      { day: "2026-11-01", units: "1", cost: "10000", calls: 1 },
    ]);
    const key = rowsOf<{ day: string; units: string; cost: string; calls: number }>(
      await db.execute(sql`select day::text as day, units::text as units, cost_micros::text as cost, calls
        from usage_daily_keys order by day`),
    );
    expect(key).toEqual(project);
  }, 180_000);
});

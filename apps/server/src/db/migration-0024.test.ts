import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBefore } from "../../test/migration-fixture";
import { sqlStateOf } from "../../test/sql-state";
import { rowsOf } from "./client";

const MIGRATION = "0024_ledger_request_id";

const ORGANIZATION = "00000000-0000-4000-8000-000000000001";
const SETTLED = "10000000-0000-4000-8000-000000000001";
const REFUNDED = "10000000-0000-4000-8000-000000000002";
const OPEN = "10000000-0000-4000-8000-000000000003";
const TRAINING = "10000000-0000-4000-8000-000000000004";

// Each test migrates a new database from the first migration (PGlite: seconds, more on a loaded machine).

/**
 * Migration 0024 on a ledger written before it (decision 022, "The ledger's storage"): every call's
 * entries move from the text `'request:<uuid>'` to `request_id`, other entries keep their reference,
 * no amount changes, and both uniqueness guarantees hold on the converted rows.
 */
describe("migration 0024 names a call's ledger entries by request id", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it("converts the calls' entries, keeps the payments', and refuses duplicates of either, on PGlite or on DATABASE_URL's PostgreSQL", async () => {
    const before = await databaseBefore(MIGRATION);
    cleanup.push(() => before.close());
    const db = before.database.db;

    // Before 0024: a payment credited and partly refunded, a call settled, one refunded, one still open,
    // and a training settled then refunded (its work failed later).
    await db.execute(
      sql`insert into organizations (id, name, balance_micros) values (${ORGANIZATION}, 'Old', 0)`,
    );
    await db.execute(sql`insert into ledger_entries (organization_id, kind, amount_micros, reference)
      select ${ORGANIZATION}::uuid, kind, amount, reference
      from (values ('credit', 50000000, 'payment:pi_1'), ('payment-refund', -5000000, 'payment-refund:ch_1:5000'),
        ('reservation', -30000, ${`request:${SETTLED}`}), ('settlement', 0, ${`request:${SETTLED}`}),
        ('reservation', -20000, ${`request:${REFUNDED}`}), ('refund', 20000, ${`request:${REFUNDED}`}),
        ('reservation', -10000, ${`request:${OPEN}`}),
        ('reservation', -4000000, ${`request:${TRAINING}`}), ('settlement', 0, ${`request:${TRAINING}`}),
        ('refund', 4000000, ${`request:${TRAINING}`}))
        as entry(kind, amount, reference)`);
    const sumBefore = rowsOf<{ total: string }>(
      await db.execute(sql`select sum(amount_micros)::text as total from ledger_entries`),
    )[0]?.total;

    await before.migrateRest();

    const entries = rowsOf<{
      kind: string;
      amount: string;
      reference: string | null;
      request_id: string | null;
    }>(
      await db.execute(sql`select kind, amount_micros::text as amount, reference, request_id::text as request_id
        from ledger_entries order by amount_micros, kind, request_id`),
    );
    expect(entries).toEqual([
      { kind: "payment-refund", amount: "-5000000", reference: "payment-refund:ch_1:5000", request_id: null },
      { kind: "reservation", amount: "-4000000", reference: null, request_id: TRAINING },
      { kind: "reservation", amount: "-30000", reference: null, request_id: SETTLED },
      { kind: "reservation", amount: "-20000", reference: null, request_id: REFUNDED },
      { kind: "reservation", amount: "-10000", reference: null, request_id: OPEN },
      { kind: "settlement", amount: "0", reference: null, request_id: SETTLED },
      { kind: "settlement", amount: "0", reference: null, request_id: TRAINING },
      { kind: "refund", amount: "20000", reference: null, request_id: REFUNDED },
      { kind: "refund", amount: "4000000", reference: null, request_id: TRAINING },
      { kind: "credit", amount: "50000000", reference: "payment:pi_1", request_id: null },
    ]);
    const sumAfter = rowsOf<{ total: string }>(
      await db.execute(sql`select sum(amount_micros)::text as total from ledger_entries`),
    )[0]?.total;
    expect(sumAfter).toBe(sumBefore);

    const columns = rowsOf<{ name: string }>(
      await db.execute(sql`select column_name as name from information_schema.columns
        where table_name = 'ledger_entries' order by column_name`),
    ).map((row) => row.name);
    expect(columns).toEqual([
      "amount_micros",
      "created_at",
      "kind",
      "organization_id",
      "reference",
      "request_id",
    ]);
    const indexes = rowsOf<{ name: string }>(
      await db.execute(
        sql`select indexname as name from pg_indexes where tablename = 'ledger_entries' order by 1`,
      ),
    ).map((row) => row.name);
    expect(indexes).toEqual([
      "ledger_entries_kind_reference_unique",
      "ledger_entries_organization_idx",
      "ledger_entries_request_kind_unique",
      "ledger_entries_reservation_created_idx",
    ]);

    // The database itself refuses a second settlement or refund of a converted call, a call's entry
    // under the old text reference (which would escape the call's unique index), and a second credit.
    const insert = (kind: string, requestId: string | null, reference: string | null) =>
      db.execute(sql`insert into ledger_entries (organization_id, kind, amount_micros, request_id, reference)
        values (${ORGANIZATION}, ${kind}, 1, ${requestId}::uuid, ${reference})`);
    expect(await sqlStateOf(insert("settlement", SETTLED, null))).toBe("23505");
    expect(await sqlStateOf(insert("refund", REFUNDED, null))).toBe("23505");
    expect(await sqlStateOf(insert("refund", TRAINING, null))).toBe("23505");
    expect(await sqlStateOf(insert("reservation", OPEN, null))).toBe("23505");
    expect(await sqlStateOf(insert("settlement", null, `request:${OPEN}`))).toBe("23514");
    expect(await sqlStateOf(insert("settlement", OPEN, `request:${OPEN}`))).toBe("23514");
    expect(await sqlStateOf(insert("credit", null, "payment:pi_1"))).toBe("23505");
    expect(await sqlStateOf(insert("credit", OPEN, null))).toBe("23514");
    // The open call can still end, once.
    expect(await sqlStateOf(insert("refund", OPEN, null))).toBeUndefined();
  }, 180_000);

  it("stops, changing nothing, at a call's entry whose reference names no request", async () => {
    const before = await databaseBefore(MIGRATION);
    cleanup.push(() => before.close());
    const db = before.database.db;
    await db.execute(sql`insert into organizations (id, name) values (${ORGANIZATION}, 'Odd')`);
    await db.execute(sql`insert into ledger_entries (organization_id, kind, amount_micros, reference)
      values (${ORGANIZATION}, 'reservation', -10000, ${`request:${OPEN}`}),
        (${ORGANIZATION}, 'reservation', -10000, 'manual:2026-11-01')`);

    await expect(before.migrateRest()).rejects.toThrow();

    const references = rowsOf<{ reference: string }>(
      await db.execute(sql`select reference from ledger_entries order by reference`),
    ).map((row) => row.reference);
    expect(references).toEqual(["manual:2026-11-01", `request:${OPEN}`]);
  }, 180_000);
});

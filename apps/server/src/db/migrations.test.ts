import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createFreshDatabase, type FreshDatabase } from "@prism/test-support/postgres";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "../paths";
import { isMigrated, MIGRATION_LOCK_KEY, newestJournalMigration, openDatabase } from "./client";

const serverUrl = process.env.DATABASE_URL;
const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

async function admin<T>(run: (client: pg.Client) => Promise<T>, url = serverUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe("skipping the migrator when the database is up to date", () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "prism-migrations-"));
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("reads a new database as not migrated, a migrated one as up to date, and applies a newer migration", async () => {
    const database = openDatabase({
      databaseUrl: undefined,
      pgliteDir: undefined,
      migrationsFolder: folder,
    });
    try {
      expect(await isMigrated(database.db, folder)).toBe(false);
      await database.migrate();
      expect(await isMigrated(database.db, folder)).toBe(true);

      // A release with one more migration: the check now fails and migrate() applies it.
      const journalPath = join(folder, "meta", "_journal.json");
      const next = JSON.parse(readFileSync(journalPath, "utf8")) as {
        entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
      };
      const last = next.entries.at(-1)!;
      const tag = "9999_startup_check";
      next.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
      writeFileSync(journalPath, JSON.stringify(next));
      writeFileSync(join(folder, `${tag}.sql`), "CREATE TABLE startup_check (id integer);");
      expect(newestJournalMigration(folder)).toBe(last.when + 1000);
      expect(await isMigrated(database.db, folder)).toBe(false);

      await database.migrate();
      expect(await isMigrated(database.db, folder)).toBe(true);
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { count: number }[] };
      expect(rows[0]?.count).toBe(next.entries.length);
      await database.db.execute(sql`select id from startup_check`);
    } finally {
      await database.close();
    }
    // A new embedded database runs every migration from nothing (no template): seconds when idle, over
    // 30 on a CI machine whose two cores run the other suites beside it.
  }, 120_000);
});

// Advisory locks guard several processes sharing one PostgreSQL server; a PGlite data directory is
// only ever opened by one process, so there is nothing to race there. CI's PostgreSQL pass runs this.
describe.skipIf(!serverUrl)("migrations on PostgreSQL (needs DATABASE_URL)", () => {
  const created: FreshDatabase[] = [];

  async function freshDatabase(): Promise<string> {
    const database = await createFreshDatabase(serverUrl as string, "prism_migrate");
    created.push(database);
    return database.url;
  }

  const appliedCount = (url: string) =>
    admin(async (client) => {
      const result = await client.query<{ count: string }>(
        "select count(*) from drizzle.__drizzle_migrations",
      );
      return Number(result.rows[0]?.count);
    }, url);

  beforeAll(() => {
    expect(journal.entries.length).toBeGreaterThan(0);
  });

  afterAll(async () => {
    for (const database of created) await database.drop();
  });

  it("lets two processes starting together on a new database migrate it once, both succeeding", async () => {
    const url = await freshDatabase();
    const first = openDatabase({ databaseUrl: url });
    const second = openDatabase({ databaseUrl: url });
    try {
      await Promise.all([first.migrate(), second.migrate()]);
      expect(await appliedCount(url)).toBe(journal.entries.length);
      // Both can use the schema, and a later start finds nothing to do.
      await first.ping();
      await second.migrate();
      expect(await appliedCount(url)).toBe(journal.entries.length);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("waits for the process holding the migration lock before migrating", async () => {
    const url = await freshDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const handle = openDatabase({ databaseUrl: url });
    try {
      await holder.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
      let finished = false;
      const migrating = handle.migrate().then(() => {
        finished = true;
      });
      await sleep(500);
      expect(finished).toBe(false);
      const schemas = await holder.query("select 1 from pg_namespace where nspname = 'drizzle'");
      expect(schemas.rowCount).toBe(0);

      await holder.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
      await migrating;
      expect(await appliedCount(url)).toBe(journal.entries.length);
      // The lock was given back: another session can take it at once.
      const retaken = await holder.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [
        MIGRATION_LOCK_KEY.toString(),
      ]);
      expect(retaken.rows[0]?.locked).toBe(true);
    } finally {
      await holder.end();
      await handle.close();
    }
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFreshDatabase, type FreshDatabase } from "@prism/test-support/postgres";
import { type DatabaseHandle, openDatabase } from "../src/db/client";
import { MIGRATIONS_DIR } from "../src/paths";

export interface DatabaseBeforeMigration {
  database: DatabaseHandle;
  /** Applies `tag` and every migration after it. */
  migrateRest(): Promise<void>;
  /** Closes and removes the database and its copy of the migrations. */
  close(): Promise<void>;
}

/**
 * A database migrated up to, not including, the migration `tag`, for that migration's test with the
 * rows it converts: in memory on PGlite, or a fresh database on DATABASE_URL's PostgreSQL when it is set.
 */
export async function databaseBefore(tag: string): Promise<DatabaseBeforeMigration> {
  const folder = mkdtempSync(join(tmpdir(), `prism-migration-${tag.slice(0, 4)}-`));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const fullJournal = readFileSync(journalPath, "utf8");
  const journal = JSON.parse(fullJournal) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag} in the journal`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

  let fresh: FreshDatabase | undefined;
  if (process.env.DATABASE_URL)
    fresh = await createFreshDatabase(process.env.DATABASE_URL, "prism_migration");
  const database = openDatabase({ databaseUrl: fresh?.url, migrationsFolder: folder });
  await database.migrate();
  return {
    database,
    async migrateRest() {
      writeFileSync(journalPath, fullJournal);
      await database.migrate();
    },
    async close() {
      await database.close();
      await fresh?.drop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFreshDatabase } from "@prism/test-support/postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase, pgliteDirFor } from "../src/db/client";

/**
 * Copies the run's migrated PGlite template to where a server with this DATA_DIR keeps its database, and
 * answers that directory, to be opened where it lies as the server opens it. Loading the same cluster
 * into memory from a 42 MB tarball (a 16 MB WAL segment among it, unpacked in JavaScript) cost a third
 * more CPU per open, and the in-memory files slowed the rest of the file too: the server and SDK suites
 * on PGlite went from 596 to 465 core-seconds (330 -> 265 s) when they moved to copies (issue 28).
 */
export function copyPgliteTemplate(dataDir: string): string {
  const pgliteDir = pgliteDirFor(dataDir);
  cpSync(inject("pgliteTemplateDir"), pgliteDir, { recursive: true });
  return pgliteDir;
}

/**
 * An isolated, migrated database for one test file: PGlite in a temporary directory by default, or a
 * fresh database on the PostgreSQL server named by DATABASE_URL (CI runs the suite both ways); both start
 * from the run's migrated template (test/global-setup.ts). Closing it drops it.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), "prism-test-db-"));
    const handle = openDatabase({ pgliteDir: copyPgliteTemplate(dataDir) });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  const fresh = await createFreshDatabase(serverUrl, "prism_test", { template: inject("postgresTemplate") });
  const handle = openDatabase({ databaseUrl: fresh.url });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await fresh.drop();
    },
  };
}

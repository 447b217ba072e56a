import { readFileSync } from "node:fs";
import { createFreshDatabase } from "@prism/test-support/postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../src/db/client";

/**
 * An isolated, migrated database for one test file: in-memory PGlite by default, or a fresh database
 * on the PostgreSQL server named by DATABASE_URL (CI runs the suite both ways); both start from the run's
 * migrated template (test/global-setup.ts). Closing it drops it.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = new Blob([readFileSync(inject("pgliteTemplatePath"))]);
    return openDatabase({ pgliteTemplate: template });
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

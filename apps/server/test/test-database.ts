import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../src/db/client";

/**
 * An isolated, migrated database for one test file: in-memory PGlite by default, or a fresh database
 * on the PostgreSQL server named by DATABASE_URL (CI runs the suite both ways). Closing it drops it.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = new Blob([readFileSync(inject("pgliteTemplatePath"))]);
    return openDatabase({ pgliteTemplate: template });
  }

  const name = `prism_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

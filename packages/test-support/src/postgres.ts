import { randomBytes } from "node:crypto";
import pg from "pg";

export interface FreshDatabase {
  /** The new database's name on the server. */
  name: string;
  /** `serverUrl` pointing at the new database. */
  url: string;
  /** Drops the database, closing whatever connections are still open to it. */
  drop(): Promise<void>;
}

async function runAdminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own on the PostgreSQL server at `serverUrl` (the suites' DATABASE_URL), named
 * `<prefix>_<random>` so that test files, server processes and journeys running at once never share one.
 * Empty, or a copy of `options.template` (a database nobody is connected to, such as a run's migrated
 * template: copying one is a fraction of migrating anew).
 */
export async function createFreshDatabase(
  serverUrl: string,
  prefix: string,
  options: { template?: string | undefined } = {},
): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await runAdminQuery(
    serverUrl,
    options.template
      ? `CREATE DATABASE "${name}" TEMPLATE "${options.template}"`
      : `CREATE DATABASE "${name}"`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => runAdminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

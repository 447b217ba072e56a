import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { MIGRATIONS_DIR } from "../paths";
import * as schema from "./schema";

export type Schema = typeof schema;

/** Both drivers' Drizzle instances share this type, so modules never know which one runs. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** A transaction or the database itself: store functions accept either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball (test templates). */
  dumpDataDir(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** `postgres://...` for PostgreSQL; otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `undefined` keeps the database in memory (tests). */
  pgliteDir?: string | undefined;
  /** PGlite only: start from this dumped data directory (a migrated test template). */
  pgliteTemplate?: Blob | undefined;
  migrationsFolder?: string;
  /** Told when an idle PostgreSQL connection fails (logged by the server). */
  onIdleClientError?: (error: Error) => void;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_DIR;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client's connection can drop (a database restart, a failover, a terminated backend): the
    // pool discards that client and connects a new one when needed. Without a listener, node-postgres
    // would turn this into an uncaught exception and end the process.
    pool.on("error", (error) => options.onIdleClientError?.(error));
    const nodePostgresDb = drizzleNodePostgres(pool, { schema });
    // Both drivers' instances are PgDatabase subclasses; widening to the shared base type is sound.
    const db = nodePostgresDb as unknown as Database;
    return {
      db,
      kind: "postgres",
      migrate: () => migrateNodePostgres(nodePostgresDb, { migrationsFolder }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
      dumpDataDir: () => Promise.reject(new Error("dumpDataDir is only available on PGlite")),
    };
  }

  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  // PGlite ignores the options argument when the data directory argument is present but undefined.
  const client = options.pgliteDir
    ? new PGlite(options.pgliteDir)
    : new PGlite({ loadDataDir: options.pgliteTemplate });
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir("none"),
  };
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, "pglite");
}

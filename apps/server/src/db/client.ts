import { mkdirSync, readFileSync } from "node:fs";
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

/** The rows of a raw statement: both drivers answer `execute` with `rows` (the shared type leaves it untyped). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A transaction or the database itself: store functions accept either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Connections of the PostgreSQL pool, for the metrics (PGlite has one connection and no pool). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Applies pending migrations; on PostgreSQL under an advisory lock, so one process at a time does. */
  migrate(): Promise<void>;
  poolStats(): PoolStats | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onPayload` for every `pg_notify(channel, payload)` committed by any process on this
   * database (and by this one). Answers a function that stops listening. On PostgreSQL the
   * notifications come over one dedicated connection, reconnected when it drops (notifications sent
   * meanwhile are missed: listeners poll as well).
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface DatabaseOptions {
  /** `postgres://...` for PostgreSQL; otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `undefined` keeps the database in memory (tests). */
  pgliteDir?: string | undefined;
  migrationsFolder?: string;
  /** Told when an idle PostgreSQL connection fails (logged by the server). */
  onIdleClientError?: (error: Error) => void;
}

/**
 * The session-level advisory lock every process takes before migrating (an arbitrary constant, the
 * same in every version of the server). Two processes starting together on a new release would
 * otherwise both find a migration pending and both apply it; with the lock the second waits, then
 * finds nothing left to do.
 */
export const MIGRATION_LOCK_KEY = 727_115_420_260_021n;

const POOL_MAX = 10;

/**
 * When the newest migration of the journal was created (its `when`, which Drizzle's migrator records as
 * `created_at` of the migration it applies).
 */
export function newestJournalMigration(migrationsFolder: string): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database already has every migration of the journal: one indexed read, where the
 * migrator would create its schema and table if missing, read every migration file and hash it
 * (issue 16: start-up time). The migrator applies exactly the migrations newer than the newest one
 * recorded, so a database whose newest record is the journal's newest has nothing to apply. A
 * database never migrated has no such table, which reads as "not up to date".
 */
export async function isMigrated(db: Database, migrationsFolder: string): Promise<boolean> {
  try {
    // Both drivers answer with `rows` (the shared Database type leaves the result untyped).
    const rows = rowsOf<{ created_at: string | number | null }>(
      await db.execute(sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`),
    );
    const newest = rows[0]?.created_at;
    return (
      newest !== null && newest !== undefined && Number(newest) === newestJournalMigration(migrationsFolder)
    );
  } catch {
    return false;
  }
}

/**
 * Runs the migrations on one connection that holds the migration lock for the whole run, unless the
 * database is already up to date (checked without the lock; the migrator checks again under it).
 */
async function migrateUnderLock(pool: pg.Pool, db: Database, migrationsFolder: string): Promise<void> {
  if (await isMigrated(db, migrationsFolder)) return;
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrateNodePostgres(drizzleNodePostgres(client, { schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    client.release();
  }
}

/** How long a dropped notification connection waits before connecting again. */
const LISTEN_RECONNECT_MS = 1_000;

/**
 * LISTEN on PostgreSQL over a connection of its own (a pooled connection would be handed to other
 * queries), connected on first use and again after it drops, listening again to every channel.
 */
function notificationListener(databaseUrl: string, onError?: (error: Error) => void) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const fresh = new pg.Client({ connectionString: databaseUrl });
      fresh.on("notification", (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? "");
      });
      fresh.on("error", (error) => {
        onError?.(error);
        if (client === fresh) client = undefined;
        connecting = undefined;
        fresh.end().catch(() => undefined);
        if (!closed && handlers.size > 0) {
          setTimeout(() => void connect().catch(() => undefined), LISTEN_RECONNECT_MS).unref();
        }
      });
      await fresh.connect();
      for (const channel of handlers.keys()) await fresh.query(`listen ${pg.escapeIdentifier(channel)}`);
      client = fresh;
      return fresh;
    })().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };

  return {
    async listen(channel: string, onPayload: (payload: string) => void) {
      const set = handlers.get(channel) ?? new Set();
      const isNew = set.size === 0;
      set.add(onPayload);
      handlers.set(channel, set);
      const connection = await connect();
      if (isNew) await connection.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        set.delete(onPayload);
        if (set.size > 0) return;
        handlers.delete(channel);
        await client?.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_DIR;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POOL_MAX });
    // An idle client's connection can drop (a database restart, a failover, a terminated backend): the
    // pool discards that client and connects a new one when needed. Without a listener, node-postgres
    // would turn this into an uncaught exception and end the process.
    pool.on("error", (error) => options.onIdleClientError?.(error));
    const notifications = notificationListener(options.databaseUrl, options.onIdleClientError);
    const nodePostgresDb = drizzleNodePostgres(pool, { schema });
    // Both drivers' instances are PgDatabase subclasses; widening to the shared base type is sound.
    const db = nodePostgresDb as unknown as Database;
    return {
      db,
      kind: "postgres",
      migrate: () => migrateUnderLock(pool, db, migrationsFolder),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: POOL_MAX,
      }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        await notifications.close();
        await pool.end();
      },
      listen: (channel, onPayload) => notifications.listen(channel, onPayload),
    };
  }

  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = new PGlite(options.pgliteDir);
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  return {
    db,
    kind: "pglite",
    // A PGlite data directory is opened by one process only, so there is nobody to race.
    migrate: async () => {
      if (!(await isMigrated(db, migrationsFolder))) await migratePglite(pgliteDb, { migrationsFolder });
    },
    poolStats: () => undefined,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return async () => {
        // Closing the database ends its listeners too; stopping one afterwards has nothing to do.
        if (!client.closed) await stop();
      };
    },
  };
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, "pglite");
}

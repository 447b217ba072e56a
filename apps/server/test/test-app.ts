import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app";
import { type AppDependencies, createDependencies } from "../src/app-dependencies";
import { type AppConfig, loadConfig } from "../src/config";
import type { DatabaseHandle } from "../src/db/client";
import { createTestDatabase } from "./test-database";

export interface TestApp {
  app: FastifyInstance;
  deps: AppDependencies;
  database: DatabaseHandle;
  config: AppConfig;
  /** Closes the app, drops the database and removes the temp data directory. */
  close(): Promise<void>;
}

/** The real app on an isolated database and a temp DATA_DIR; env overrides go through loadConfig. */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<AppDependencies> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "prism-test-"));
  // The builtin engine starts worker threads; only the tests that exercise it turn it on.
  const config = loadConfig({
    APP_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    BUILTIN_ENGINE: "off",
    ...env,
  });
  const database = await createTestDatabase();
  const deps = { ...createDependencies(config, database), ...overrides };
  const app = await buildApp(deps, {
    logger: env.LOG_LEVEL ? { level: env.LOG_LEVEL } : false,
    runJobs: false,
  });
  await app.ready();
  return {
    app,
    deps,
    database,
    config,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers a same-origin browser sends with a console call (inject's default host is localhost:80). */
export const SAME_ORIGIN = { origin: "http://localhost:80" } as const;

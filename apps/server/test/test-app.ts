import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import argon2 from "argon2";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app";
import { type AppDependencies, createDependencies } from "../src/app-dependencies";
import { type AppConfig, loadConfig } from "../src/config";
import type { DatabaseHandle } from "../src/db/client";
import { type PasswordHasher, verifyPassword } from "../src/providers/password-hashing";
import { createTestDatabase } from "./test-database";

/**
 * argon2id at its lowest cost (8 KiB, one pass) for the suite's hundreds of sign-ups and sign-ins:
 * production's cost took 138 ms a hash. The hashes are still real argon2id, verified by the production
 * code (which reads the cost from the hash); abuse.test.ts checks the production cost itself.
 */
const QUICK_PASSWORDS: PasswordHasher = {
  hash: (password) =>
    argon2.hash(password, { type: argon2.argon2id, memoryCost: 8, timeCost: 1, parallelism: 1 }),
  verify: verifyPassword,
};

export interface TestApp {
  app: FastifyInstance;
  deps: AppDependencies;
  database: DatabaseHandle;
  config: AppConfig;
  /** Closes the app, drops the database and removes the temp data directory. */
  close(): Promise<void>;
}

/**
 * The real app on an isolated database and a temp DATA_DIR; env overrides go through loadConfig.
 * With LOG_LEVEL set, logs go to `options.logStream` (a test reading what the server logs) or stdout.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<AppDependencies> = {},
  options: { logStream?: NodeJS.WritableStream; webhookTimeoutMs?: number } = {},
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
  const deps = { ...createDependencies(config, database), passwords: QUICK_PASSWORDS, ...overrides };
  const app = await buildApp(deps, {
    logger: env.LOG_LEVEL
      ? { level: env.LOG_LEVEL, ...(options.logStream ? { stream: options.logStream } : {}) }
      : false,
    runJobs: false,
    ...(options.webhookTimeoutMs !== undefined ? { webhookTimeoutMs: options.webhookTimeoutMs } : {}),
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

/**
 * The configuration production refuses to start without, pointing at local stand-ins: Stripe's API at a
 * closed local port (a test that needs answers starts test/fake-stripe.ts and overrides the URL), SMTP
 * likewise. For tests of production-only behaviour: `createTestApp(PRODUCTION_ENV)`.
 */
export const PRODUCTION_ENV = {
  APP_ENV: "production",
  PUBLIC_URL: "https://console.example.com",
  SMTP_URL: "smtp://127.0.0.1:9",
  STRIPE_SECRET_KEY: "sk_test_local",
  STRIPE_PUBLISHABLE_KEY: "pk_test_local",
  STRIPE_WEBHOOK_SECRET: "whsec_local",
  STRIPE_API_BASE_URL: "http://127.0.0.1:9",
  METRICS_TOKEN: "test-metrics-token-0123456789",
  APP_SECRET: "test-app-secret-0123456789abcdefghij",
} as const satisfies Record<string, string>;

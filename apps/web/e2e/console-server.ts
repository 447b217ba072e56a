import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { findFreePort } from "@prism/test-support/free-port";
import { createFreshDatabase } from "@prism/test-support/postgres";

const repoRoot = resolve(import.meta.dirname, "../../..");
const serverEntry = resolve(repoRoot, "apps/server/dist/main.js");

async function waitForHealth(baseUrl: string, server: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`the server did not become healthy within ${timeoutMs} ms`);
}

/**
 * Set by a journey file that runs on PGlite, the embedded database `npm start` defaults to, even when
 * the run's DATABASE_URL names a PostgreSQL (see the `*-pglite.e2e.test.ts` files). Module state is the
 * file's own: Vitest gives each journey file a fresh module graph.
 */
let embeddedDatabase = false;

/** Makes every console server this journey file starts use PGlite. */
export function runOnEmbeddedDatabase(): void {
  embeddedDatabase = true;
}

export interface ConsoleServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the built console server (apps/server/dist) on a free port with a fresh DATA_DIR (and a fresh
 * PostgreSQL database when DATABASE_URL is set, unless {@link runOnEmbeddedDatabase}), as `npm start` would, with `env` on top. Each journey
 * file gets one (journey-servers.ts); journeys that need a differently configured deployment start
 * their own.
 */
export async function startConsoleServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<ConsoleServer> {
  if (!existsSync(serverEntry))
    throw new Error("apps/server/dist/main.js is missing: run `npm run build` first");
  const port = await findFreePort();
  const dataDir = mkdtempSync(resolve(tmpdir(), "prism-e2e-"));
  const postgresUrl = embeddedDatabase ? undefined : process.env.DATABASE_URL;
  const postgres = postgresUrl ? await createFreshDatabase(postgresUrl, "prism_e2e") : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    APP_ENV: "test",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    // Every journey signs up and in from 127.0.0.1; per-email throttles stay as in production.
    AUTH_LIMITS_PER_IP_SCALE: "50",
  };
  // Only what the journey configures: keys from the developer's shell must not send journeys elsewhere.
  for (const name of ["MODEL_SERVER_URL", "MODEL_SERVER_FEATURES", "MODEL_SERVER_API_KEY", "OPENAI_API_KEY"])
    delete env[name];
  Object.assign(env, extraEnv);
  if (postgres) env.DATABASE_URL = postgres.url;
  else delete env.DATABASE_URL;

  const server = spawn(process.execPath, ["--enable-source-maps", serverEntry], {
    cwd: dataDir,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    server.kill("SIGKILL");
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    close: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((done) => server.once("exit", done));
        server.kill("SIGTERM");
        await exited;
      }
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

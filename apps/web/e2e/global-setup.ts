import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { MODEL_SERVER_FEATURES, startModelServer } from "./model-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The local model server (model-server.ts) serving the features the builtin engine does not. */
    modelServerUrl: string;
  }
}

const repoRoot = resolve(import.meta.dirname, "../../..");
const serverEntry = resolve(repoRoot, "apps/server/dist/main.js");

async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

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

/** With DATABASE_URL set the journeys run against a fresh PostgreSQL database, dropped afterwards. */
async function createFreshPostgresDatabase(serverUrl: string) {
  const name = `prism_e2e_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export interface ConsoleServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the built console server (apps/server/dist) on a free port with a fresh DATA_DIR (and a fresh
 * PostgreSQL database when DATABASE_URL is set), as `npm start` would, with `env` on top. Journeys that
 * need a differently configured deployment start their own.
 */
export async function startConsoleServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<ConsoleServer> {
  if (!existsSync(serverEntry))
    throw new Error("apps/server/dist/main.js is missing: run `npm run build` first");
  const port = await findFreePort();
  const dataDir = mkdtempSync(resolve(tmpdir(), "prism-e2e-"));
  const postgres = process.env.DATABASE_URL
    ? await createFreshPostgresDatabase(process.env.DATABASE_URL)
    : undefined;
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
  await waitForHealth(baseUrl, server);
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

export default async function setup(project: TestProject) {
  const modelServer = await startModelServer();
  const server = await startConsoleServer({
    MODEL_SERVER_URL: modelServer.url,
    MODEL_SERVER_FEATURES: MODEL_SERVER_FEATURES.join(","),
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("modelServerUrl", modelServer.url);

  return async () => {
    await server.close();
    await modelServer.close();
  };
}

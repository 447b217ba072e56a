import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "@prism/test-support/free-port";
import { createFreshDatabase, type FreshDatabase } from "@prism/test-support/postgres";
import { inject } from "vitest";
import { copyPgliteTemplate } from "./test-database";

/**
 * The server as production runs it: its own Node process started from the run's bundle of `src/main.ts`
 * (test/server-bundle-setup.ts, bundle.mjs), which a test can kill with SIGKILL and start again on the same
 * database.
 */

/** The command that starts the server's process: Node on the run's bundle, with source maps for traces. */
export function serverProcessArguments(): string[] {
  return ["--enable-source-maps", inject("serverBundlePath")];
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process wrote, for failure messages. */
  output: string[];
  /** Sends `signal` and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000) {
  const port = await findFreePort();
  // An empty working directory: main.ts reads a `.env` from it, and the developer's must not apply.
  const cwd = mkdtempSync(join(tmpdir(), "prism-process-"));
  const child = spawn(process.execPath, serverProcessArguments(), {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? cwd,
      APP_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      BUILTIN_ENGINE: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    child,
    output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode}:\n${output.join("")}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop("SIGKILL");
      throw new Error(`the server did not become healthy:\n${output.join("")}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Where a server process keeps its data: a temp DATA_DIR (PGlite inside it) or, when the suite runs on
 * PostgreSQL, a fresh database on that server as well. PGlite on disk admits one process at a time.
 */
export async function createProcessStorage() {
  const dataDir = mkdtempSync(join(tmpdir(), "prism-data-"));
  const serverUrl = process.env.DATABASE_URL;
  let database: FreshDatabase | undefined;
  if (!serverUrl) {
    // Starting from the run's migrated template skips PGlite's initdb, the slowest part of a new database.
    copyPgliteTemplate(dataDir);
  } else {
    database = await createFreshDatabase(serverUrl, "prism_process", {
      template: inject("postgresTemplate"),
    });
  }
  const databaseUrl = database?.url;
  return {
    dataDir,
    databaseUrl,
    /** The variables that point a server process at this storage. */
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } as Record<
      string,
      string
    >,
    remove: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

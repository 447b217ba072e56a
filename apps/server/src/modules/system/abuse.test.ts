import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "@prism/test-support/free-port";
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import { serverProcessArguments } from "../../../test/server-process";
import { createTestApp, PRODUCTION_ENV } from "../../../test/test-app";
import { createDependencies } from "../../app-dependencies";

interface RunningMain {
  child: ChildProcess;
  port: number;
  output(): string;
  /** Resolves with the exit code, or with "ready" once /healthz answers on the loopback interface. */
  outcome: Promise<number | "ready">;
}

const started: { child: ChildProcess; dataDir: string }[] = [];

/**
 * The server's real entry point (src/main.ts, bundled as `npm start` runs it) as its own process,
 * with only the given environment: nothing leaks in from the test run (no DATABASE_URL, no keys).
 */
async function runMain(env: Record<string, string>): Promise<RunningMain> {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), "prism-main-"));
  const child = spawn(process.execPath, serverProcessArguments(), {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      DATA_DIR: dataDir,
      BUILTIN_ENGINE: "off",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push({ child, dataDir });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number>((done) => child.once("exit", (code) => done(code ?? -1)));
  const ready = (async () => {
    // A new embedded database is made and migrated first: on a loaded machine that takes a minute.
    const deadline = Date.now() + PROCESS_TIMEOUT_MS - 15_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) return new Promise<never>(() => undefined);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return "ready" as const;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`the server neither started nor exited:\n${output}`);
  })();
  return { child, port, output: () => output, outcome: Promise.race([exited, ready]) };
}

afterEach(async () => {
  for (const { child, dataDir } of started.splice(0)) {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Resolves true when a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
    socket.once("timeout", () => {
      socket.destroy();
      done(false);
    });
  });
}

const externalAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && entry.family === "IPv4")
    .map((entry) => entry?.address ?? "");

/** Each test starts the server's own process, migrations included: seconds, on a busy machine tens. */
const PROCESS_TIMEOUT_MS = 120_000;

describe("safe by default", { timeout: PROCESS_TIMEOUT_MS }, () => {
  it("listens only on the loopback interface with the embedded defaults", async () => {
    const main = await runMain({});
    expect(await main.outcome, main.output()).toBe("ready");
    const listening = [...main.output().matchAll(/Server listening at (http:\/\/[^"\s]+)/g)].map(
      (match) => new URL(match[1] ?? "").hostname,
    );
    expect(listening.length, main.output()).toBeGreaterThan(0);
    for (const hostname of listening) expect(["127.0.0.1", "[::1]"]).toContain(hostname);
    // Nothing answers on the machine's other interfaces.
    for (const address of externalAddresses()) {
      expect(await accepts(address, main.port), address).toBe(false);
    }
    expect(await accepts("127.0.0.1", main.port)).toBe(true);
  });

  it("refuses to start in production without Stripe, SMTP, PUBLIC_URL, METRICS_TOKEN and APP_SECRET, naming each variable", async () => {
    const main = await runMain({ APP_ENV: "production" });
    expect(await main.outcome, main.output()).toBe(1);
    const output = main.output();
    for (const variable of [
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "SMTP_URL",
      "PUBLIC_URL",
      "METRICS_TOKEN",
      "APP_SECRET",
    ]) {
      expect(output).toContain(variable);
    }
    expect(output).toContain("APP_ENV=production");
  });

  it("serves production with real providers only: no sandbox payments, no dev mailbox", async () => {
    const production = await createTestApp(PRODUCTION_ENV);
    try {
      expect(production.deps.payments.kind).toBe("stripe");
      expect(production.deps.sandboxPayments).toBeUndefined();
      expect((await production.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
      const sandbox = await post(production, "/v1/payments/sandbox/confirm-setup", {
        clientSecret: "seti_sbx_x_secret_y",
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2040,
        cvc: "123",
      });
      expect(sandbox.statusCode).toBe(404);
      // A configuration assembled without loadConfig cannot bring the sandbox or the outbox back either.
      expect(() =>
        createDependencies({ ...production.config, stripe: undefined }, production.database),
      ).toThrow(/Stripe and SMTP/);
      expect(() =>
        createDependencies(
          { ...production.config, mail: { ...production.config.mail, smtpUrl: undefined } },
          production.database,
        ),
      ).toThrow(/Stripe and SMTP/);
    } finally {
      await production.close();
    }
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { startLocalServer } from "../../../test/local-http-server";
import { startModelServerStub } from "../../../test/model-server-stub";
import {
  callFeature,
  openStorage,
  type ProcessStorage,
  readMoney,
  type SeededAccount,
  seedAccount,
} from "../../../test/process-fixtures";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";
import { SESSION_COOKIE } from "../auth/session-cookie";

/**
 * A crash can never strand a reservation: a real server process is killed with SIGKILL while a feature
 * call holds money, then started again on the same database; its sweeper must give the money back
 * exactly once and mark the call failed.
 */

const FUNDS = 1_000_000n;
const BACKGROUND_REMOVAL_PRICE = 10_000n;
/**
 * The sweeper looks every quarter second, and a dead process's call is refunded once its lease (3 s)
 * runs out. The provider's timeout is long, so that on a loaded machine the doomed process's own
 * sweeper never takes its still-running call for abandoned before the kill: only the lease, which the
 * living process renews, decides.
 */
const PROCESS_TIMING = {
  PROVIDER_TIMEOUT_MS: "30000",
  REQUEST_SWEEP_INTERVAL_MS: "250",
  CALL_LEASE_MS: "3000",
};

/** A model server that takes every feature call and never answers it. */
function startHangingModelServer() {
  return startModelServerStub({ answers: {}, otherwise: "hang" });
}

/** A storage service that takes the upload and never confirms it; `reached` resolves on its first request. */
async function startHangingStorage() {
  let markReached: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const server = await startLocalServer(() => markReached());
  return { ...server, reached };
}

/** The organization's ledger and requests, read with the server stopped (PGlite admits one process). */
async function readMoneyStopped(storage: ProcessStorage, organizationId: string) {
  const database = openStorage(storage);
  try {
    return await readMoney(database.db, organizationId);
  } finally {
    await database.close();
  }
}

function kindsOf(entries: { kind: string }[]) {
  return entries.map((entry) => entry.kind).sort();
}

/** Sends a background removal and does not wait for it: the process dies under this call. */
function removeBackground(server: ServerProcess, apiKey: string) {
  callFeature(server, apiKey, "/v1/images/background-removal").catch(() => undefined);
}

/** Polls the restarted server's history until the call shows as failed. */
async function waitForFailedRow(server: ServerProcess, account: SeededAccount) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${server.url}/v1/users/playground/get-requests`, {
      method: "POST",
      headers: {
        origin: server.url,
        "content-type": "application/json",
        cookie: `${SESSION_COOKIE}=${account.session}`,
      },
      body: JSON.stringify({
        endpoint: "/v1/images/background-removal",
        projectId: account.projectId,
        offset: 0,
      }),
    });
    const history = (await response.json()) as { requests?: { status: string }[] };
    if (history.requests?.[0]?.status === "error") return;
    if (Date.now() > deadline) {
      throw new Error(
        `the abandoned call was never failed: ${JSON.stringify(history)}\n${server.output.join("")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a crash can never strand a reservation", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  /**
   * Kills the server with SIGKILL once the hanging service is `reached`, checks the money is held,
   * restarts it and checks the sweeper refunds it exactly once.
   */
  async function crashAndRecover(env: Record<string, string>, reached: Promise<unknown>) {
    const storage = await createProcessStorage();
    cleanups.push(() => storage.remove());
    const account = await seedAccount(storage, FUNDS);
    const processEnv = { ...storage.env, ...PROCESS_TIMING, ...env };

    const doomed = await startServerProcess(processEnv);
    cleanups.push(() => doomed.stop("SIGKILL"));
    removeBackground(doomed, account.apiKey);
    await reached;
    await doomed.stop("SIGKILL");

    const afterCrash = await readMoneyStopped(storage, account.organizationId);
    expect(kindsOf(afterCrash.entries)).toEqual(["reservation"]);
    expect(afterCrash.balance).toBe(FUNDS - BACKGROUND_REMOVAL_PRICE);

    const restarted = await startServerProcess(processEnv);
    cleanups.push(() => restarted.stop("SIGKILL"));
    await waitForFailedRow(restarted, account);
    // A few more sweeps must not refund it again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await restarted.stop("SIGTERM");

    const recovered = await readMoneyStopped(storage, account.organizationId);
    expect(kindsOf(recovered.entries)).toEqual(["refund", "reservation"]);
    expect(recovered.balance).toBe(FUNDS);
    expect(recovered.ledger).toBe(FUNDS);
    expect(recovered.rows).toHaveLength(1);
    expect(recovered.rows[0]).toMatchObject({ status: "error" });
  }

  it("refunds once, after a restart, a call whose process was killed while the model server worked", async () => {
    const modelServer = await startHangingModelServer();
    cleanups.push(() => modelServer.close());
    await crashAndRecover(
      { MODEL_SERVER_URL: modelServer.url, MODEL_SERVER_FEATURES: "image-background-removal" },
      modelServer.firstCall,
    );
  }, 120_000);

  it("refunds once, after a restart, a call whose process was killed while storing its upload", async () => {
    const modelServer = await startHangingModelServer();
    cleanups.push(() => modelServer.close());
    // A storage service that takes the upload and never confirms it: the process dies after reserving
    // the money and before anything else is written.
    const storageService = await startHangingStorage();
    cleanups.push(() => storageService.close());
    await crashAndRecover(
      {
        MODEL_SERVER_URL: modelServer.url,
        MODEL_SERVER_FEATURES: "image-background-removal",
        S3_BUCKET: "prism",
        S3_ENDPOINT: storageService.url,
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "test",
        S3_SECRET_ACCESS_KEY: "test-secret",
      },
      storageService.reached,
    );
  }, 120_000);
});

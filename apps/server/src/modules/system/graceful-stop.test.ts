import { randomUUID } from "node:crypto";
import { CALL_INTERRUPTED_BY_RESTART, SERVER_RESTARTING } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import {
  callFeature,
  kindsByRequest,
  openStorage,
  type ProcessStorage,
  readMoney,
  type SeededAccount,
  seedAccount,
} from "../../../test/process-fixtures";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";
import { featureRequests, jobs } from "../../db/schema";
import { TRAINING_POLL_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";

const FUNDS = 1_000_000n;
const SHUTDOWN_TIMEOUT_MS = 3_000;
/** The call that finishes inside the deadline takes this long at the model server. */
const SLOW_CALL_MS = 1_500;

/**
 * SIGTERM to a real server process while it works: a call that can finish does, and is charged; a
 * call still running at the deadline is stopped and refunded; a call arriving meanwhile is refused
 * with 503 and Retry-After; the training status poll the job worker holds is handed back; the
 * process exits cleanly.
 */
describe("a graceful stop on SIGTERM", () => {
  let storage: ProcessStorage;
  let account: SeededAccount;
  let modelServer: StubModelServer;
  let server: ServerProcess;
  const pollJobId = randomUUID();
  /** Whether the model server received `call` ("METHOD /path"). */
  const received = (call: string) =>
    modelServer.calls.some((request) => `${request.method} ${request.path}` === call);

  const waitFor = async (what: string, condition: () => boolean | Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server?.output.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    // Upscaling and the training status never answer: only the shutdown ends them.
    modelServer = await startModelServerStub({
      answers: { "/image-background-removal": "png" },
      otherwise: "hang",
    });
    modelServer.control.delayMs = SLOW_CALL_MS;
    storage = await createProcessStorage();
    account = await seedAccount(storage, FUNDS);
    // A training whose status poll is due: the process's job worker takes it as soon as it starts.
    const database = openStorage(storage);
    try {
      const requestId = randomUUID();
      await database.db.insert(featureRequests).values({
        id: requestId,
        organizationId: account.organizationId,
        projectId: account.projectId,
        endpoint: "/v1/images/pegasus-training",
        callType: "pegasus-training",
        status: "done",
        provider: "http",
        requestFiles: {},
        requestBody: {},
        responseBody: { identityId: "identity-slow", status: "training" },
        units: 1,
        priceMicros: 0n,
      });
      await enqueueJob(database.db, TRAINING_POLL_JOB, { requestId, identityId: "identity-slow" });
      await database.db.update(jobs).set({ id: pollJobId }).where(eq(jobs.kind, TRAINING_POLL_JOB));
    } finally {
      await database.close();
    }
    server = await startServerProcess({
      ...storage.env,
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal,image-upscaling,pegasus-training",
      PROVIDER_TIMEOUT_MS: "60000",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      // The training status poll must still be waiting when the deadline comes, however slowly a
      // loaded machine gets the two calls going first.
      MODEL_SERVER_PROBE_TIMEOUT_MS: "60000",
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await modelServer?.close();
    await storage?.remove();
  });

  it("finishes what it can, refunds what it must abandon, refuses new calls, hands back its job and exits 0", async () => {
    await waitFor("the job worker to poll the training", () =>
      received("GET /pegasus-training/identity-slow"),
    );
    const finishing = callFeature(server, account.apiKey, "/v1/images/background-removal");
    const abandoned = callFeature(server, account.apiKey, "/v1/images/upscaling");
    await waitFor(
      "both calls to reach the model server",
      () => received("POST /image-background-removal") && received("POST /image-upscaling"),
    );

    const exited = new Promise<number | null>((resolve) =>
      server.child.once("exit", (code) => resolve(code)),
    );
    const signalledAt = Date.now();
    server.child.kill("SIGTERM");

    // Readiness fails at once, so a load balancer stops sending traffic here.
    await waitFor("readiness to fail", async () => (await fetch(`${server.url}/readyz`)).status === 503);
    const refused = await callFeature(server, account.apiKey, "/v1/images/background-removal");
    expect(refused.status, refused.text).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.json).toMatchObject({ error: "service-unavailable", message: SERVER_RESTARTING });
    expect(refused.json.requestId).toEqual(expect.any(String));

    const finished = await finishing;
    expect(finished.status, finished.text).toBe(200);
    const stopped = await abandoned;
    expect(stopped.status, stopped.text).toBe(503);
    expect(stopped.json).toMatchObject({
      error: "service-unavailable",
      message: CALL_INTERRUPTED_BY_RESTART,
    });
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 100);

    expect(await exited, server.output.join("")).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 10_000);

    const database = openStorage(storage);
    try {
      const money = await readMoney(database.db, account.organizationId);
      const rows = new Map(money.rows.map((row) => [row.endpoint, row]));
      const charged = rows.get("/v1/images/background-removal");
      const refunded = rows.get("/v1/images/upscaling");
      expect(charged).toMatchObject({ status: "done" });
      expect(refunded).toMatchObject({ status: "error", errorMessage: CALL_INTERRUPTED_BY_RESTART });
      // The refused call never reserved anything: two calls in the ledger, one settled, one refunded.
      const kinds = kindsByRequest(money.entries);
      expect(kinds.size).toBe(2);
      expect(kinds.get(charged?.id ?? "")).toEqual(["reservation", "settlement"]);
      expect(kinds.get(refunded?.id ?? "")).toEqual(["refund", "reservation"]);
      expect(money.balance).toBe(FUNDS - (charged?.priceMicros ?? 0n));
      expect(money.ledger).toBe(money.balance);

      // The poll the worker was waiting on is queued again with no lease, its attempt not counted.
      const [job] = await database.db.select().from(jobs).where(eq(jobs.id, pollJobId));
      expect(job, server.output.join("")).toMatchObject({
        status: "queued",
        leaseUntil: null,
        leaseToken: null,
        attempts: 0,
      });
    } finally {
      await database.close();
    }
  }, 120_000);
});

import { TRAINING_FAILED_REFUNDED } from "@prism/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import { fundedAccount } from "../../../test/key-fixtures";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { startTraining as startTrainingWith } from "../../../test/training";
import {
  featureRequests,
  jobs,
  ledgerEntries,
  organizations,
  usageDaily,
  usageDailyKeys,
} from "../../db/schema";
import { cachedBalance, ledgerBalance } from "../ledger/ledger.service";

/**
 * A training the model server accepts and later reports failed: the job queue's status poll refunds
 * its charge through the ledger exactly once, and the request's history row shows the failure.
 */

const TRAINING_PRICE_MICROS = 5_000_000n;

describe("a training that fails after it was charged", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let organizationId: string;
  let projectId: string;
  let session: string;
  let apiKey: string;
  let identityCounter = 0;
  /** Whether the model server reports the next training ready rather than failed. */
  let nextTrainingSucceeds = false;

  const db = () => testApp.database.db;

  const startTraining = () => startTrainingWith(testApp, apiKey, "Doomed");

  /** Runs every status poll now, as the queue would after its interval. */
  const runPolls = async () => {
    await db()
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.kind, "training-poll"));
    await testApp.app.jobWorker.drain();
  };

  beforeAll(async () => {
    modelServer = await startLocalServer((request, response) => {
      if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, {});
      if (request.method === "POST" && request.path === "/pegasus-training") {
        identityCounter += 1;
        const prefix = nextTrainingSucceeds ? "kept" : "doomed";
        return sendJson(response, 200, { identityId: `${prefix}-${identityCounter}`, status: "pending" });
      }
      if (request.method === "GET" && request.path.startsWith("/pegasus-training/doomed-")) {
        return sendJson(response, 200, { status: "failed" });
      }
      if (request.method === "GET" && request.path.startsWith("/pegasus-training/kept-")) {
        return sendJson(response, 200, { status: "ready" });
      }
      sendJson(response, 404, { message: "unknown" });
    });
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "pegasus-training",
    });
    const account = await fundedAccount(testApp, 20_000_000n);
    session = account.owner.session;
    ({ organizationId, projectId } = account);
    apiKey = (await account.createKey()).content;
    await db().update(organizations).set({ isNew: false }).where(eq(organizations.id, organizationId));
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("refunds the charge once, fails the request and takes it out of the usage rollup", async () => {
    const before = await cachedBalance(db(), organizationId);
    const started = await startTraining();
    const requestId = started.request.id;
    expect(await cachedBalance(db(), organizationId)).toBe(before - TRAINING_PRICE_MICROS);
    const [rollupCharged] = await db().select().from(usageDaily).where(eq(usageDaily.projectId, projectId));
    expect(rollupCharged).toMatchObject({ calls: 1, costMicros: TRAINING_PRICE_MICROS });

    await runPolls();
    // Polls that run again (another process, a retried job) refund nothing more.
    await db()
      .insert(jobs)
      .values({ kind: "training-poll", payload: { requestId, identityId: `doomed-${identityCounter}` } });
    await runPolls();

    expect(await cachedBalance(db(), organizationId)).toBe(before);
    expect(await ledgerBalance(db(), organizationId)).toBe(before);
    const refunds = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, "refund"), eq(ledgerEntries.requestId, requestId)));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.amountMicros).toBe(TRAINING_PRICE_MICROS);

    const [row] = await db().select().from(featureRequests).where(eq(featureRequests.id, requestId));
    expect(row).toMatchObject({
      status: "error",
      errorMessage: TRAINING_FAILED_REFUNDED,
      responseBody: { identityId: `doomed-${identityCounter}`, status: "failed" },
    });
    const [rollup] = await db().select().from(usageDaily).where(eq(usageDaily.projectId, projectId));
    expect(rollup).toMatchObject({ calls: 0, units: 0, costMicros: 0n });
    const pending = await db().select().from(jobs).where(eq(jobs.status, "queued"));
    expect(pending).toHaveLength(0);
  });

  it("refunds a failed training whose row was deleted from the history before the failure", async () => {
    const before = await cachedBalance(db(), organizationId);
    const started = await startTraining();
    const requestId = started.request.id;
    const deleted = await post(
      testApp,
      "/v1/users/playground/delete-request",
      { projectId, requestId },
      { session },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await cachedBalance(db(), organizationId)).toBe(before - TRAINING_PRICE_MICROS);

    await runPolls();

    expect(await cachedBalance(db(), organizationId)).toBe(before);
    expect(await ledgerBalance(db(), organizationId)).toBe(before);
    const [row] = await db().select().from(featureRequests).where(eq(featureRequests.id, requestId));
    expect(row?.deletedAt).not.toBeNull();
    expect(row).toMatchObject({ status: "error", errorMessage: TRAINING_FAILED_REFUNDED });
    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { projectId, endpoint: "/v1/images/pegasus-training", offset: 0 },
      { session },
    );
    expect(history.json().requests.map((item: { id: string }) => item.id)).not.toContain(requestId);
  });

  it("leaves the key's usage rollup, and the usage API by key, as it found them", async () => {
    const keyRows = () => db().select().from(usageDailyKeys).where(eq(usageDailyKeys.projectId, projectId));
    const today = new Date().toISOString().slice(0, 10);
    const usageByKey = async () => {
      const response = await testApp.app.inject({
        method: "GET",
        url: `/v1/usage?start=${today}&end=${today}&group_by=api_key`,
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().buckets;
    };
    // A training that stays charged first, so the key has a row for the refund to leave as it was.
    nextTrainingSucceeds = true;
    await startTraining();
    await runPolls();
    nextTrainingSucceeds = false;
    const rowsBefore = await keyRows();
    expect(rowsBefore.filter((row) => row.calls > 0)).toHaveLength(1);
    const bucketsBefore = await usageByKey();
    expect(bucketsBefore).toEqual([
      expect.objectContaining({ calls: rowsBefore[0]?.calls, units: Number(rowsBefore[0]?.units) }),
    ]);

    await startTraining();
    const [charged] = await keyRows();
    expect(charged?.calls).toBe((rowsBefore[0]?.calls ?? 0) + 1);
    expect(charged?.costMicros).toBe((rowsBefore[0]?.costMicros ?? 0n) + TRAINING_PRICE_MICROS);

    await runPolls();
    expect(await keyRows()).toEqual(rowsBefore);
    expect(await usageByKey()).toEqual(bucketsBefore);
  });

  it("shows the failure in the playground history and the AI Clones list", async () => {
    const started = await startTraining();
    await runPolls();
    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { projectId, endpoint: "/v1/images/pegasus-training", offset: 0 },
      { session },
    );
    expect(history.statusCode, history.body).toBe(200);
    const row = history.json().requests.find((item: { id: string }) => item.id === started.request.id);
    expect(row).toMatchObject({
      status: "error",
      response_data: { body: { status: "failed" } },
    });
    const clones = await post(
      testApp,
      "/v1/users/playground/get-trained-identities",
      { projectId, offset: 0 },
      { session },
    );
    const clone = clones.json().requests.find((item: { id: string }) => item.id === started.request.id);
    expect(clone).toMatchObject({ status: "error", identity_status: "failed" });
  });
});

import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { startTraining as startTrainingWith } from "../../../test/training";
import { jobs, organizations } from "../../db/schema";
import { credit } from "../ledger/ledger.service";

/**
 * An API user who starts a training hears how it ended through its webhook: `training.ready` with the
 * identity id, or `training.failed` with the refund, once each however often the status is polled.
 */
describe("training webhooks", () => {
  let modelServer: LocalServer;
  let receiver: LocalServer;
  let testApp: TestApp;
  let apiKey: string;
  let secret: string;
  let counter = 0;
  /** What the model server says about the next trainings. */
  let outcome: "ready" | "failed" = "ready";

  const startTraining = () => startTrainingWith(testApp, apiKey, "Someone");

  /** Runs every status poll twice (as two processes or a retried job would), then the deliveries. */
  const runPollsTwice = async (requestId: string, identityId: string) => {
    const db = testApp.database.db;
    await db
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.kind, "training-poll"));
    await db.insert(jobs).values({ kind: "training-poll", payload: { requestId, identityId } });
    await testApp.app.jobWorker.drain();
    await db.insert(jobs).values({ kind: "training-poll", payload: { requestId, identityId } });
    await testApp.app.jobWorker.drain();
  };

  const received = () =>
    receiver.requests.map((request) =>
      new Webhook(secret).verify(request.body, {
        "webhook-id": String(request.headers["webhook-id"]),
        "webhook-timestamp": String(request.headers["webhook-timestamp"]),
        "webhook-signature": String(request.headers["webhook-signature"]),
      }),
    ) as { type: string; data: Record<string, unknown> }[];

  beforeAll(async () => {
    modelServer = await startLocalServer((request, response) => {
      if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, {});
      if (request.method === "POST" && request.path === "/pegasus-training") {
        counter += 1;
        return sendJson(response, 200, { identityId: `${outcome}-${counter}`, status: "pending" });
      }
      if (request.method === "GET" && request.path.startsWith("/pegasus-training/")) {
        return sendJson(response, 200, { status: request.path.includes("/ready-") ? "ready" : "failed" });
      }
      sendJson(response, 404, { message: "unknown" });
    });
    receiver = await startLocalServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "pegasus-training",
    });
    const owner = await signUpAndConfirm(testApp);
    const organizationId: string = owner.userInfo.organizations[0].id;
    const projectId: string = owner.userInfo.organizations[0].projects[0].id;
    apiKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "ci" },
        { session: owner.session },
      )
    ).json().apiKey.content;
    await testApp.database.db
      .update(organizations)
      .set({ isNew: false })
      .where(eq(organizations.id, organizationId));
    await testApp.database.db.transaction((tx) =>
      credit(tx, { organizationId, amountMicros: 20_000_000n, reference: `grant-${organizationId}` }),
    );
    const endpoint = await post(
      testApp,
      "/v1/organizations/webhooks/insert",
      { organizationId, url: `${receiver.url}/hook`, events: ["training.ready", "training.failed"] },
      { session: owner.session },
    );
    secret = endpoint.json().secret;
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
    await receiver?.close();
  });

  it("sends training.ready with the identity id once", async () => {
    outcome = "ready";
    receiver.requests.length = 0;
    const started = await startTraining();
    const identityId = started.request.response_data.body.identityId;
    await runPollsTwice(started.request.id, identityId);
    expect(received()).toEqual([
      {
        type: "training.ready",
        timestamp: expect.any(String),
        data: expect.objectContaining({ request_id: started.request.id, identity_id: identityId }),
      },
    ]);
  });

  it("sends training.failed with the refund once", async () => {
    outcome = "failed";
    receiver.requests.length = 0;
    const started = await startTraining();
    const identityId = started.request.response_data.body.identityId;
    await runPollsTwice(started.request.id, identityId);
    expect(received()).toEqual([
      {
        type: "training.failed",
        timestamp: expect.any(String),
        data: expect.objectContaining({
          request_id: started.request.id,
          identity_id: identityId,
          refunded: 5,
        }),
      },
    ]);
  });
});

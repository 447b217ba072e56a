import {
  CALL_CANCELED,
  type CallWebhookBody,
  callAlreadyEndedText,
  microsToUsd,
  type RequestDetail,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import { callFeature, fundedAccount } from "../../../test/key-fixtures";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { eventually, type QueueModelServer, startQueueModelServer } from "../../../test/queue-model-server";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { featureRequests, ledgerEntries, webhookDeliveries } from "../../db/schema";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { WEBHOOK_DELIVERY_JOB } from "../jobs/job-kinds";
import { cachedBalance, ledgerBalance } from "../ledger/ledger.service";
import { checkCallWebhookTarget } from "../webhooks/call-webhooks";
import { eventJobHandlers } from "../webhooks/webhook-delivery";
import { sweepAbandonedRequests } from "./call-failure";

/**
 * The call queue through HTTP (issue 29): asynchronous calls (`Prefer`), status, cancel, capacity,
 * fair sharing and per-call webhooks, against a model server with one slot that holds its calls until
 * the test lets them go.
 */

const GENERATION_PRICE_MICROS = 20_000n;

function generate(
  testApp: TestApp,
  apiKey: string,
  options: { prefer?: string; tag?: string; extra?: { name: string; value: string }[] } = {},
) {
  return callFeature(
    testApp,
    apiKey,
    "/v1/images/generation",
    [
      { name: "prompt", value: options.tag ?? "a lighthouse" },
      { name: "width", value: "256" },
      { name: "height", value: "256" },
      ...(options.extra ?? []),
    ],
    options.prefer ? { headers: { prefer: options.prefer } } : {},
  );
}

function getRequest(testApp: TestApp, apiKey: string, id: string) {
  return testApp.app.inject({
    method: "GET",
    url: `/v1/requests/${id}`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
}

function cancelRequest(testApp: TestApp, apiKey: string, id: string) {
  return testApp.app.inject({
    method: "POST",
    url: `/v1/requests/${id}/cancel`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
}

describe("the call queue", () => {
  let model: QueueModelServer;
  let testApp: TestApp;

  beforeAll(async () => {
    model = await startQueueModelServer();
    testApp = await createTestApp({ ...model.env(), PROVIDER_TIMEOUT_MS: "20000" });
  });

  afterAll(async () => {
    model.release();
    await testApp?.close();
    await model?.close();
  });

  beforeEach(() => {
    model.control.hold = false;
    model.release();
  });

  const rowOf = async (id: string) => {
    const [row] = await testApp.database.db.select().from(featureRequests).where(eq(featureRequests.id, id));
    return row;
  };

  it("answers Prefer: respond-async with 202, the call's id, reservation and URLs, and GET follows it to its result", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    const submitted = await generate(testApp, key.content, { prefer: "respond-async" });
    expect(submitted.statusCode, submitted.body).toBe(202);
    expect(submitted.headers["preference-applied"]).toBe("respond-async");
    const accepted = submitted.json() as RequestDetail;
    expect(submitted.headers.location).toBe(`/v1/requests/${accepted.id}`);
    expect(accepted).toMatchObject({
      endpoint: "/v1/images/generation",
      reserved: microsToUsd(GENERATION_PRICE_MICROS),
      error: null,
      urls: { get: `/v1/requests/${accepted.id}`, cancel: `/v1/requests/${accepted.id}/cancel` },
    });
    expect(["queued", "running"]).toContain(accepted.status);
    // Reserved on submit.
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(
      1_000_000n - GENERATION_PRICE_MICROS,
    );

    await eventually(() => model.held.length === 1, "the model to receive the call");
    const running = (await getRequest(testApp, key.content, accepted.id)).json() as RequestDetail;
    expect(running.status).toBe("running");
    expect(running.started_date).not.toBeNull();
    expect(running.completed_date).toBeNull();

    model.release();
    await eventually(async () => (await rowOf(accepted.id))?.status === "done", "the call to succeed");
    const done = await getRequest(testApp, key.content, accepted.id);
    expect(done.statusCode).toBe(200);
    const detail = done.json() as RequestDetail;
    expect(detail).toMatchObject({ status: "succeeded", cost: microsToUsd(GENERATION_PRICE_MICROS) });
    expect(detail.completed_date).not.toBeNull();
    expect(detail.response_data.file).toMatch(/^\/v1\/files\//);
    const file = await testApp.app.inject({
      method: "GET",
      url: detail.response_data.file as string,
      headers: { authorization: `Bearer ${key.content}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    // Settled once: the reservation stands, nothing refunded.
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(
      1_000_000n - GENERATION_PRICE_MICROS,
    );
    expect(await ledgerBalance(testApp.database.db, account.organizationId)).toBe(
      1_000_000n - GENERATION_PRICE_MICROS,
    );
  });

  it("answers Prefer: wait=N as a synchronous call when the call ends in time, else 202", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const quick = await generate(testApp, key.content, { prefer: "wait=5" });
    expect(quick.statusCode, quick.body).toBe(200);
    expect(quick.headers["preference-applied"]).toBe("wait=5");
    expect(quick.json()).toMatchObject({ cost: microsToUsd(GENERATION_PRICE_MICROS) });

    model.control.hold = true;
    const started = Date.now();
    const slow = await generate(testApp, key.content, { prefer: "respond-async, wait=1" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(slow.statusCode, slow.body).toBe(202);
    expect((slow.json() as RequestDetail).status).toBe("running");
    model.release();
  });

  it("keeps a call without Prefer synchronous", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const answer = await generate(testApp, key.content);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers["preference-applied"]).toBeUndefined();
    expect(answer.json().request.status).toBe("done");
  });

  it("queues calls beyond the provider's capacity, shows their position, and starts them as the slot frees", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const answer = await generate(testApp, key.content, { prefer: "respond-async" });
      expect(answer.statusCode, answer.body).toBe(202);
      ids.push((answer.json() as RequestDetail).id);
    }
    await eventually(() => model.held.length === 1, "the first call to reach the model");
    const [first, second, third] = await Promise.all(ids.map((id) => getRequest(testApp, key.content, id)));
    expect(first?.json()).toMatchObject({ status: "running", queue_position: null });
    expect(second?.json()).toMatchObject({ status: "queued", queue_position: 0, started_date: null });
    expect(third?.json()).toMatchObject({ status: "queued", queue_position: 1 });
    // All three are paid for on submit; only one reached the model (its capacity is one).
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(
      1_000_000n - 3n * GENERATION_PRICE_MICROS,
    );
    expect(model.held).toHaveLength(1);

    for (let remaining = 3; remaining > 0; remaining -= 1) {
      await eventually(() => model.held.length === 1, "the next call to reach the model");
      model.release(1);
    }
    for (const id of ids)
      await eventually(async () => (await rowOf(id))?.status === "done", "every call to succeed");
    expect(model.mostAtOnce).toBe(1);
  });

  it("lets a synchronous call wait in the queue and answers it once it has run", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    const blocker = await generate(testApp, key.content, { prefer: "respond-async" });
    await eventually(() => model.held.length === 1, "the first call to hold the slot");
    const waiting = generate(testApp, key.content, { tag: "waits its turn" });
    await eventually(
      async () =>
        (await testApp.database.db.select().from(featureRequests).where(eq(featureRequests.status, "queued")))
          .length === 1,
      "the synchronous call to be queued",
    );
    model.release(1);
    await eventually(() => model.held.length === 1, "the queued call to start");
    expect(model.held[0]?.tag).toBe("waits its turn");
    model.release(1);
    const answer = await waiting;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      cost: microsToUsd(GENERATION_PRICE_MICROS),
      balance: microsToUsd(1_000_000n - 2n * GENERATION_PRICE_MICROS),
      request: { status: "done" },
    });
    expect(blocker.statusCode).toBe(202);
  });

  it("shares the slot fairly: another organization's first call waits at most one turn behind a backlog", async () => {
    const busy = await fundedAccount(testApp, 10_000_000n);
    const busyKey = await busy.createKey();
    const quiet = await fundedAccount(testApp, 1_000_000n);
    const quietKey = await quiet.createKey();
    model.control.hold = true;
    for (let index = 0; index < 8; index += 1) {
      const answer = await generate(testApp, busyKey.content, {
        prefer: "respond-async",
        tag: `busy ${index}`,
      });
      expect(answer.statusCode).toBe(202);
    }
    await eventually(() => model.held.length === 1, "the backlog's first call to start");
    const quietCall = await generate(testApp, quietKey.content, { prefer: "respond-async", tag: "quiet" });
    expect(quietCall.statusCode).toBe(202);
    expect((quietCall.json() as RequestDetail).queue_position).toBeLessThanOrEqual(1);

    const order: (string | undefined)[] = [];
    while (order.length < 9) {
      await eventually(() => model.held.length === 1, "the next call to start");
      order.push(model.held[0]?.tag);
      model.release(1);
    }
    // The quiet organization's call started as the second or third of nine, not the ninth.
    expect(order.indexOf("quiet")).toBeGreaterThan(0);
    expect(order.indexOf("quiet")).toBeLessThanOrEqual(2);
  });

  it("cancels a queued call: it never reaches the model and is refunded in full, once", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    await generate(testApp, key.content, { prefer: "respond-async" });
    await eventually(() => model.held.length === 1, "the slot to be taken");
    const queued = (
      await generate(testApp, key.content, { prefer: "respond-async", tag: "never runs" })
    ).json();
    expect(queued.status).toBe("queued");
    const received = model.received.length;

    const canceled = await cancelRequest(testApp, key.content, queued.id);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ status: "canceled", cost: 0, error: "request-canceled" });
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(
      1_000_000n - GENERATION_PRICE_MICROS,
    );
    // Idempotent: canceling again answers the canceled call, and refunds nothing more.
    const again = await cancelRequest(testApp, key.content, queued.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe("canceled");
    const refunds = await testApp.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.requestId, queued.id));
    expect(refunds.map((entry) => entry.kind).sort()).toEqual(["refund", "reservation"]);

    model.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(model.received.slice(received).map((call) => call.tag)).not.toContain("never runs");
    expect(await ledgerBalance(testApp.database.db, account.organizationId)).toBe(
      await cachedBalance(testApp.database.db, account.organizationId),
    );
  });

  it("cancels a running call: the model sees the abort, the call is refunded, its synchronous caller told", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    const waiting = generate(testApp, key.content, { tag: "stopped midway" });
    await eventually(() => model.held.length === 1, "the call to reach the model");
    const [row] = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, account.organizationId));
    const canceled = await cancelRequest(testApp, key.content, row?.id as string);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ status: "canceled", cost: 0 });

    const answer = await waiting;
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: "request-canceled", message: CALL_CANCELED });
    await eventually(() => model.received.at(-1)?.aborted === true, "the model to see the call hang up");
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    expect(await ledgerBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    // The slot came back: the next call runs.
    model.control.hold = false;
    expect((await generate(testApp, key.content)).statusCode).toBe(200);
  });

  it("answers 409 to canceling a call that has ended, and 404 for another project's call", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const done = (await generate(testApp, key.content)).json().request.id as string;
    const refused = await cancelRequest(testApp, key.content, done);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: "request-ended",
      message: callAlreadyEndedText("succeeded"),
    });

    const stranger = await fundedAccount(testApp, 0n);
    const strangerKey = await stranger.createKey();
    expect((await getRequest(testApp, strangerKey.content, done)).statusCode).toBe(404);
    expect((await cancelRequest(testApp, strangerKey.content, done)).statusCode).toBe(404);
    expect((await getRequest(testApp, key.content, "not-a-uuid")).statusCode).toBe(404);
  });

  it("follows and cancels a playground call with the session and the project header", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    model.control.hold = true;
    const session = {
      cookies: { [SESSION_COOKIE]: account.owner.session },
      headers: { "x-authorization-project": account.projectId, ...SAME_ORIGIN },
    };
    const key = await account.createKey();
    await generate(testApp, key.content, { prefer: "respond-async" });
    const queued = (
      await generate(testApp, key.content, { prefer: "respond-async" })
    ).json() as RequestDetail;
    const seen = await testApp.app.inject({
      method: "GET",
      url: `/v1/requests/${queued.id}`,
      ...session,
    });
    expect(seen.statusCode, seen.body).toBe(200);
    const canceled = await testApp.app.inject({
      method: "POST",
      url: `/v1/requests/${queued.id}/cancel`,
      ...session,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().status).toBe("canceled");
    model.release();
  });

  it("refunds a running call whose process stopped renewing its lease, once", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    model.control.hold = true;
    const accepted = (
      await generate(testApp, key.content, { prefer: "respond-async" })
    ).json() as RequestDetail;
    await eventually(() => model.held.length === 1, "the call to start");
    // As a dead process leaves it: its lease ran out and nobody renews it.
    await testApp.database.db
      .update(featureRequests)
      .set({ leaseUntil: new Date(Date.now() - 1_000), runner: "a-dead-process" })
      .where(eq(featureRequests.id, accepted.id));
    const olderThan = new Date(Date.now() - 3_600_000);
    expect(await sweepAbandonedRequests(testApp.database.db, olderThan)).toBe(1);
    expect(await sweepAbandonedRequests(testApp.database.db, olderThan)).toBe(0);
    expect((await rowOf(accepted.id))?.status).toBe("error");
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    model.release();
  });
});

describe("per-call webhooks", () => {
  let model: QueueModelServer;
  let testApp: TestApp;
  let receiverUrl = "";
  /** The customer's webhook endpoint: every delivery it received. */
  let receiver: LocalServer;

  beforeAll(async () => {
    model = await startQueueModelServer();
    testApp = await createTestApp({ ...model.env(), PUBLIC_URL: "https://console.example.com" });
    receiver = await startLocalServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    receiverUrl = `${receiver.url}/hooks`;
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
    await receiver?.close();
  });

  async function deliverPending() {
    const handlers = eventJobHandlers({
      db: testApp.database.db,
      mailer: testApp.deps.mailer,
      allowPrivateTargets: true,
      renderCallWebhook: async (requestId, eventType) => {
        const { renderCallWebhook } = await import("./request-detail");
        return renderCallWebhook(testApp.database.db, requestId, eventType, "https://console.example.com");
      },
    });
    const pending = await testApp.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, "pending"));
    for (const delivery of pending) {
      await handlers[WEBHOOK_DELIVERY_JOB]?.(
        { deliveryId: delivery.id },
        { signal: new AbortController().signal },
      );
    }
  }

  it("sends start and completed to the call's webhook, signed with the organization's secret shown on the Webhooks page", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const answer = await generate(testApp, key.content, {
      prefer: "respond-async",
      extra: [
        { name: "webhook", value: receiverUrl },
        { name: "webhook_events_filter", value: "start,completed" },
      ],
    });
    expect(answer.statusCode, answer.body).toBe(202);
    const id = (answer.json() as RequestDetail).id;
    await eventually(
      async () =>
        (await testApp.database.db.select().from(featureRequests).where(eq(featureRequests.id, id)))[0]
          ?.status === "done",
      "the call to end",
    );
    await deliverPending();
    expect(receiver.requests).toHaveLength(2);

    const secretAnswer = await post(
      testApp,
      "/v1/organizations/webhooks/call-secret",
      { organizationId: account.organizationId },
      { session: account.owner.session },
    );
    expect(secretAnswer.statusCode, secretAnswer.body).toBe(200);
    const verifier = new Webhook(secretAnswer.json().secret as string);
    const bodies = receiver.requests.map(
      (delivery) =>
        verifier.verify(delivery.body, delivery.headers as Record<string, string>) as CallWebhookBody,
    );
    expect(bodies.map((body) => body.type).sort()).toEqual(["request.completed", "request.started"]);
    const completed = bodies.find((body) => body.type === "request.completed");
    expect(completed?.data).toMatchObject({
      id,
      status: "succeeded",
      cost: microsToUsd(GENERATION_PRICE_MICROS),
    });
    expect(completed?.data.response_data.file).toMatch(/^https:\/\/console\.example\.com\/v1\/files\//);
  });

  it("refuses a webhook that is not a URL or names an unknown event, charging nothing", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const notUrl = await generate(testApp, key.content, {
      extra: [{ name: "webhook", value: "hooks.example.com" }],
    });
    expect(notUrl.statusCode).toBe(400);
    expect(notUrl.json()).toMatchObject({ error: "invalid-input", field: "webhook" });
    const badEvent = await generate(testApp, key.content, {
      extra: [
        { name: "webhook", value: "https://hooks.example.com/x" },
        { name: "webhook_events_filter", value: "logs" },
      ],
    });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json().field).toBe("webhook_events_filter");
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    expect(await account.requestRows()).toEqual([]);
  });
});

describe("per-call webhook targets", () => {
  it("refuses http and private addresses where only public ones are allowed (production)", () => {
    for (const webhook of [
      "http://hooks.example.com/x",
      "https://10.0.0.8/x",
      "https://[::1]/x",
      "https://127.0.0.1/x",
    ]) {
      expect(() => checkCallWebhookTarget(webhook, { allowPrivate: false }), webhook).toThrow(/webhook/);
    }
    expect(() =>
      checkCallWebhookTarget("https://hooks.example.com/x", { allowPrivate: false }),
    ).not.toThrow();
    expect(() => checkCallWebhookTarget("http://127.0.0.1:8080/x", { allowPrivate: true })).not.toThrow();
  });
});

import type { ServerResponse } from "node:http";
import {
  WEBHOOK_DISABLED_AFTER_FAILURES,
  WEBHOOK_RECEIVER_TIMED_OUT,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
} from "@prism/contract";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { auditLog, jobs, webhookEndpoints } from "../../db/schema";

/**
 * Webhooks through HTTP: an endpoint made in the console receives its organization's events, signed
 * per Standard Webhooks, from the job queue; failures are retried on the schedule and logged, and a
 * day of failures disables the endpoint and mails the owner.
 */
describe("webhooks", () => {
  let testApp: TestApp;
  let model: LocalServer;
  let receiver: LocalServer;
  /** Answers the receiver gives, in order (then 200). */
  let answers: { status: number; body?: string }[] = [];
  let account: Awaited<ReturnType<typeof fundedAccount>>;
  let apiKey: string;
  const modelControl = { delayMs: 0, fail: false };

  const db = () => testApp.database.db;
  const session = () => account.owner.session;
  const call = (path: string, body: Record<string, unknown>) =>
    post(testApp, path, { organizationId: account.organizationId, ...body }, { session: session() });

  /** Runs every queued job now, as the queue would once their time came (no real waiting). */
  const runDueJobs = async (options: { future?: boolean } = {}) => {
    if (options.future)
      await db()
        .update(jobs)
        .set({ runAt: new Date(0) })
        .where(eq(jobs.status, "queued"));
    await testApp.app.jobWorker.drain();
  };

  const createEndpoint = async (events: string[]) => {
    const response = await call("/v1/organizations/webhooks/insert", { url: `${receiver.url}/hook`, events });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { endpoint: { id: string }; secret: string };
  };

  const deliveries = async (endpointId: string) => {
    const response = await call("/v1/organizations/webhooks/deliveries", { endpointId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().deliveries as {
      id: string;
      eventId: string;
      eventType: string;
      status: string;
      attempts: number;
      responseStatus: number | null;
      responseBody: string | null;
      durationMs: number | null;
      lastAttemptAt: string | null;
      nextAttemptAt: string | null;
    }[];
  };

  beforeAll(async () => {
    model = await startImageModelServer(modelControl);
    receiver = await startLocalServer((_request, response) => {
      const answer = answers.shift() ?? { status: 200, body: "ok" };
      response.writeHead(answer.status, { "content-type": "text/plain" });
      response.end(answer.body ?? "");
    });
    testApp = await createTestApp(imageModelEnv(model));
    account = await fundedAccount(testApp, 50_000_000n);
    apiKey = (await account.createKey()).content;
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
    await receiver?.close();
  });

  beforeEach(async () => {
    answers = [];
    receiver.requests.length = 0;
    modelControl.fail = false;
    // Each test starts from no endpoints, so only its own receive events.
    await db().delete(webhookEndpoints).where(eq(webhookEndpoints.organizationId, account.organizationId));
  });

  it("delivers a call's event signed so the standardwebhooks verifier accepts it, and logs it", async () => {
    const { endpoint, secret } = await createEndpoint(["request.succeeded"]);
    expect(secret).toMatch(/^whsec_/);
    const listed = await call("/v1/organizations/webhooks/list", {});
    expect(listed.json().endpoints).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
    expect(listed.body).not.toContain(secret);

    const called = await removeBackground(testApp, apiKey);
    expect(called.statusCode, called.body).toBe(200);
    await runDueJobs();

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    if (!received) throw new Error("nothing received");
    const verified = new Webhook(secret).verify(received.body, {
      "webhook-id": String(received.headers["webhook-id"]),
      "webhook-timestamp": String(received.headers["webhook-timestamp"]),
      "webhook-signature": String(received.headers["webhook-signature"]),
    }) as { type: string; data: { request_id: string; cost: number } };
    expect(verified.type).toBe("request.succeeded");
    expect(verified.data.request_id).toBe(called.json().request.id);
    expect(verified.data.cost).toBe(called.json().cost);
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another secret of 24 by").toString("base64")}`).verify(
        received.body,
        {
          "webhook-id": String(received.headers["webhook-id"]),
          "webhook-timestamp": String(received.headers["webhook-timestamp"]),
          "webhook-signature": String(received.headers["webhook-signature"]),
        },
      ),
    ).toThrow();

    const [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      responseBody: "ok",
    });
    expect(logged?.durationMs).toBeGreaterThanOrEqual(0);
    expect(logged?.eventId).toBe(received.headers["webhook-id"]);
  });

  it("only sends the events an endpoint subscribed to, and reports failed calls", async () => {
    await createEndpoint(["request.failed"]);
    expect((await removeBackground(testApp, apiKey)).statusCode).toBe(200);
    modelControl.fail = true;
    const failed = await removeBackground(testApp, apiKey);
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    await runDueJobs();
    expect(receiver.requests.map((request) => JSON.parse(request.body).type)).toEqual(["request.failed"]);
    expect(JSON.parse(receiver.requests[0]?.body ?? "{}").data).toMatchObject({ status: "error", cost: 0 });
  });

  it("retries a failing receiver on the backoff schedule, with the same webhook-id, until it answers", async () => {
    const { endpoint } = await createEndpoint(["request.succeeded"]);
    answers = [{ status: 500, body: "down" }, { status: 503 }];
    expect((await call("/v1/organizations/webhooks/send-test", { endpointId: endpoint.id })).statusCode).toBe(
      200,
    );

    await runDueJobs();
    let [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({
      eventType: WEBHOOK_TEST_EVENT,
      status: "pending",
      attempts: 1,
      responseStatus: 500,
    });
    expect(Date.parse(logged?.nextAttemptAt ?? "") - Date.parse(logged?.lastAttemptAt ?? "")).toBe(
      WEBHOOK_RETRY_SCHEDULE_MS[0],
    );
    // Not due yet: draining now sends nothing.
    await runDueJobs();
    expect(receiver.requests).toHaveLength(1);

    await runDueJobs({ future: true });
    [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({ status: "pending", attempts: 2, responseStatus: 503 });
    expect(Date.parse(logged?.nextAttemptAt ?? "") - Date.parse(logged?.lastAttemptAt ?? "")).toBe(
      WEBHOOK_RETRY_SCHEDULE_MS[1],
    );

    await runDueJobs({ future: true });
    [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({
      status: "succeeded",
      attempts: 3,
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((request) => request.headers["webhook-id"])).size).toBe(1);
  });

  it("gives up after the last scheduled try and keeps at most 1 KB of an answer", async () => {
    const { endpoint } = await createEndpoint(["request.succeeded"]);
    answers = Array.from({ length: WEBHOOK_RETRY_SCHEDULE_MS.length + 1 }, () => ({
      status: 500,
      body: "x".repeat(5_000),
    }));
    await call("/v1/organizations/webhooks/send-test", { endpointId: endpoint.id });
    for (let attempt = 0; attempt <= WEBHOOK_RETRY_SCHEDULE_MS.length; attempt += 1) {
      await runDueJobs({ future: true });
    }
    const [logged] = await deliveries(endpoint.id);
    expect(WEBHOOK_RETRY_SCHEDULE_MS.length + 1).toBeGreaterThanOrEqual(5);
    expect(logged).toMatchObject({ status: "failed", attempts: WEBHOOK_RETRY_SCHEDULE_MS.length + 1 });
    expect(logged?.responseBody?.length).toBe(WEBHOOK_RESPONSE_BODY_MAX_BYTES);
    await runDueJobs({ future: true });
    expect(receiver.requests).toHaveLength(WEBHOOK_RETRY_SCHEDULE_MS.length + 1);
  });

  it("resends a logged event with its webhook-id", async () => {
    const { endpoint } = await createEndpoint(["request.succeeded"]);
    await call("/v1/organizations/webhooks/send-test", { endpointId: endpoint.id });
    await runDueJobs();
    const [first] = await deliveries(endpoint.id);
    const resent = await call("/v1/organizations/webhooks/resend", {
      endpointId: endpoint.id,
      deliveryId: first?.id,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    await runDueJobs();
    const log = await deliveries(endpoint.id);
    expect(log).toHaveLength(2);
    expect(
      log.every((delivery) => delivery.status === "succeeded" && delivery.eventId === first?.eventId),
    ).toBe(true);
    expect(receiver.requests.map((request) => request.headers["webhook-id"])).toEqual([
      first?.eventId,
      first?.eventId,
    ]);
  });

  it("disables an endpoint after a day of failures and mails the owner once", async () => {
    const { endpoint } = await createEndpoint(["request.succeeded"]);
    answers = [{ status: 500 }, { status: 500 }];
    await call("/v1/organizations/webhooks/send-test", { endpointId: endpoint.id });
    await runDueJobs();
    // The first failure started the clock; a day and a bit later the next failure ends it.
    await db()
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await runDueJobs({ future: true });
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: WEBHOOK_DISABLED_AFTER_FAILURES });
    const [logged] = await deliveries(endpoint.id);
    expect(logged).toMatchObject({ status: "failed", attempts: 2 });
    await runDueJobs();
    const mails = (await testApp.deps.outbox.list()).filter(
      (mail) => mail.to === account.owner.email && mail.subject === "A webhook endpoint was disabled",
    );
    expect(mails).toHaveLength(1);
    // The organization's audit log says the system did it, and why.
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, endpoint.id), eq(auditLog.action, "webhook-endpoint.disabled")));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actorUserId: null,
      actorApiKeyId: null,
      changes: { after: { enabled: false, reason: WEBHOOK_DISABLED_AFTER_FAILURES } },
    });

    // A disabled endpoint receives nothing more until it is enabled again.
    expect((await removeBackground(testApp, apiKey)).statusCode).toBe(200);
    await runDueJobs();
    expect(receiver.requests).toHaveLength(2);
    const enabled = await call("/v1/organizations/webhooks/update", {
      endpointId: endpoint.id,
      url: `${receiver.url}/hook`,
      events: ["request.succeeded"],
      enabled: true,
    });
    expect(enabled.statusCode).toBe(200);
    const [again] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(again).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("refuses URLs that are not http(s) and unknown events", async () => {
    for (const url of ["ftp://example.com/hook", "file:///etc/passwd", "javascript:alert(1)", "not a url"]) {
      const response = await call("/v1/organizations/webhooks/insert", {
        url,
        events: ["request.succeeded"],
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toContain("http://");
    }
    const unknown = await call("/v1/organizations/webhooks/insert", {
      url: "https://example.com/hook",
      events: ["everything"],
    });
    expect(unknown.statusCode).toBe(400);
    const none = await call("/v1/organizations/webhooks/insert", {
      url: "https://example.com/hook",
      events: [],
    });
    expect(none.statusCode).toBe(400);
    expect(
      await db()
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.organizationId, account.organizationId)),
    ).toEqual([]);
  });

  it("counts delivery attempts in /metrics under the outcomes its help text names", async () => {
    const { endpoint } = await createEndpoint(["request.succeeded"]);
    answers = [{ status: 500, body: "down" }];
    expect((await call("/v1/organizations/webhooks/send-test", { endpointId: endpoint.id })).statusCode).toBe(
      200,
    );
    await runDueJobs();
    await runDueJobs({ future: true });
    expect((await deliveries(endpoint.id)).map((delivery) => delivery.status)).toEqual(["succeeded"]);

    const scraped = await testApp.app.inject({ method: "GET", url: "/metrics" });
    expect(scraped.statusCode).toBe(200);
    const lines = scraped.body.split("\n");
    const help = lines.find((line) => line.startsWith("# HELP prism_webhook_deliveries_total ")) ?? "";
    const named = /\(([^)]*)\)$/.exec(help)?.[1]?.split(", ") ?? [];
    const counted = lines
      .filter((line) => line.startsWith("prism_webhook_deliveries_total{"))
      .map((line) => /outcome="([^"]+)"/.exec(line)?.[1]);
    expect(counted).toEqual(expect.arrayContaining(["succeeded", "failed"]));
    // Every label value the counter carries is one its help text names, and only those.
    expect([...named].sort()).toEqual([...new Set(counted)].sort());
  });
});

/**
 * A receiver that takes the request and never answers: the try gives up after the delivery's timeout
 * (the contract's 10 s in production; a short one here, given to the app, so the test does not wait),
 * logs why and is retried on the schedule.
 */
describe("webhook delivery timeout", () => {
  const TEST_TIMEOUT_MS = 300;
  let testApp: TestApp;
  let receiver: LocalServer;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    receiver = await startLocalServer((_request, response) => {
      held.push(response);
    });
    testApp = await createTestApp({}, {}, { webhookTimeoutMs: TEST_TIMEOUT_MS });
  });

  afterAll(async () => {
    for (const response of held) response.destroy();
    await testApp?.close();
    await receiver?.close();
  });

  it("gives up on a receiver that never answers after the timeout, logs it and schedules the retry", async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id as string;
    const created = await post(
      testApp,
      "/v1/organizations/webhooks/insert",
      { organizationId, url: `${receiver.url}/hook`, events: ["request.succeeded"] },
      { session: owner.session },
    );
    expect(created.statusCode, created.body).toBe(200);
    const endpointId = created.json().endpoint.id as string;
    const sent = await post(
      testApp,
      "/v1/organizations/webhooks/send-test",
      { organizationId, endpointId },
      { session: owner.session },
    );
    expect(sent.statusCode).toBe(200);

    const started = performance.now();
    await testApp.app.jobWorker.drain();
    const waited = performance.now() - started;
    expect(receiver.requests).toHaveLength(1);
    expect(held).toHaveLength(1);
    expect(waited).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(WEBHOOK_TIMEOUT_MS);

    const listed = await post(
      testApp,
      "/v1/organizations/webhooks/deliveries",
      { organizationId, endpointId },
      { session: owner.session },
    );
    const [logged] = listed.json().deliveries;
    expect(logged).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatus: null,
      responseBody: WEBHOOK_RECEIVER_TIMED_OUT,
    });
    expect(logged.durationMs).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
    expect(Date.parse(logged.nextAttemptAt) - Date.parse(logged.lastAttemptAt)).toBe(
      WEBHOOK_RETRY_SCHEDULE_MS[0],
    );
  });
});

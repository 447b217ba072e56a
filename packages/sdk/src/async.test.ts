import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../../apps/server/src/db/schema";
import { renderCallWebhook } from "../../../apps/server/src/modules/features/request-detail";
import { WEBHOOK_DELIVERY_JOB } from "../../../apps/server/src/modules/jobs/job-kinds";
import { eventJobHandlers } from "../../../apps/server/src/modules/webhooks/webhook-delivery";
import { post } from "../../../apps/server/test/accounts";
import { INPUT_PNG, type PrismServer, RESULT_PNG, startPrismServer } from "../test/prism-server";
import { Prism, type RequestDetail } from "./index.js";

let server: PrismServer;
let prism: Prism;
const deliveries: { body: string; headers: IncomingHttpHeaders }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
    response.writeHead(204).end();
  });
});
let receiverUrl: string;

beforeAll(async () => {
  server = await startPrismServer();
  prism = new Prism({ apiKey: server.apiKey, baseUrl: server.baseUrl });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("asynchronous calls", () => {
  it("submits with Prefer: respond-async (202 and the call's id), waits for it, and downloads its result", async () => {
    server.model.delayMs = 300;
    try {
      const submitted = await prism.submit("image-background-removal", { image: INPUT_PNG });
      expect(["queued", "running"]).toContain(submitted.status);
      expect(submitted.urls.get).toBe(`${server.baseUrl}/v1/requests/${submitted.id}`);
      const ended = await prism.requests.wait(submitted.id, { pollIntervalMs: 50 });
      expect(ended).toMatchObject({ id: submitted.id, status: "succeeded", error: null });
      expect(ended.completed_date).not.toBeNull();
      const file = await prism.files.get(ended.response_data.file ?? "");
      expect(Buffer.from(await file.arrayBuffer())).toEqual(RESULT_PNG);
      expect((await prism.requests.get(submitted.id)).status).toBe("succeeded");
    } finally {
      server.model.delayMs = 0;
    }
  });

  it("gives up waiting after timeoutMs with a PrismError timeout, the call still running", async () => {
    server.model.delayMs = 1_500;
    try {
      const submitted = await prism.submit("image-background-removal", { image: INPUT_PNG });
      await expect(
        prism.requests.wait(submitted.id, { timeoutMs: 200, pollIntervalMs: 50 }),
      ).rejects.toMatchObject({ name: "PrismError", code: "timeout", status: 0, requestId: submitted.id });
      expect((await prism.requests.wait(submitted.id, { pollIntervalMs: 100 })).status).toBe("succeeded");
    } finally {
      server.model.delayMs = 0;
    }
  });

  it("cancels a running call (refunded), and refuses to cancel an ended one with 409 request-ended", async () => {
    server.model.delayMs = 3_000;
    try {
      const submitted = await prism.submit("image-background-removal", { image: INPUT_PNG });
      const canceled = await prism.requests.cancel(submitted.id);
      expect(canceled).toMatchObject({
        id: submitted.id,
        status: "canceled",
        error: "request-canceled",
        cost: 0,
      });
      expect((await prism.requests.wait(submitted.id)).status).toBe("canceled");
      // Canceling a canceled call answers it again.
      expect((await prism.requests.cancel(submitted.id)).status).toBe("canceled");
    } finally {
      server.model.delayMs = 0;
    }
    const done = await prism.imageBackgroundRemoval({ image: INPUT_PNG });
    await expect(prism.requests.cancel(done.requestId)).rejects.toMatchObject({
      status: 409,
      code: "request-ended",
    });
  });

  it("answers an unknown id as 404 not-found", async () => {
    await expect(prism.requests.get(crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
      code: "not-found",
    });
  });

  it("verifies the server's real per-call webhook deliveries, as the standardwebhooks package does", async () => {
    const submitted = await prism.submit(
      "image-background-removal",
      { image: INPUT_PNG },
      { webhook: receiverUrl, webhookEvents: ["start", "completed"] },
    );
    await prism.requests.wait(submitted.id, { pollIntervalMs: 50 });
    // The job runner is off in tests: the deliveries are sent by the server's own delivery handler.
    const db = server.testApp.database.db;
    const handlers = eventJobHandlers({
      db,
      mailer: server.testApp.deps.mailer,
      allowPrivateTargets: true,
      renderCallWebhook: (requestId, eventType) =>
        renderCallWebhook(db, requestId, eventType, server.baseUrl),
    });
    const pending = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
    for (const delivery of pending) {
      await handlers[WEBHOOK_DELIVERY_JOB]?.(
        { deliveryId: delivery.id },
        { signal: new AbortController().signal },
      );
    }
    expect(deliveries).toHaveLength(2);

    const secretAnswer = await post(
      server.testApp,
      "/v1/organizations/webhooks/call-secret",
      { organizationId: server.account.organizationId },
      { session: server.account.owner.session },
    );
    expect(secretAnswer.statusCode, secretAnswer.body).toBe(200);
    const secret = secretAnswer.json().secret as string;
    const library = new Webhook(secret);
    for (const delivery of deliveries) {
      const ours = await prism.webhooks.verify<{ type: string; data: RequestDetail }>(
        delivery.body,
        delivery.headers,
        secret,
      );
      expect(ours).toEqual(library.verify(delivery.body, delivery.headers as Record<string, string>));
      expect(ours.data.id).toBe(submitted.id);
    }
    await expect(
      prism.webhooks.verify(
        deliveries[0]?.body.replace(submitted.id, crypto.randomUUID()) ?? "",
        deliveries[0]?.headers ?? {},
        secret,
      ),
    ).rejects.toThrow(/signature/);
  });
});

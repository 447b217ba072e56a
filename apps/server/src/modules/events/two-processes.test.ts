import { join } from "node:path";
import { featureByEndpoint } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { callFeature, openStorage, type ProcessStorage, seedAccount } from "../../../test/process-fixtures";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";
import type { DatabaseHandle } from "../../db/client";
import { alertSettings, organizationEvents, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { OutboxMailer } from "../../providers/mail/mailer";

const serverUrl = process.env.DATABASE_URL;
const BACKGROUND_REMOVAL = "/v1/images/background-removal";
const PRICE = BigInt(featureByEndpoint(BACKGROUND_REMOVAL)?.billing.defaultPriceMicros ?? 0);
const CALLS = 12;

async function waitFor(what: string, condition: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Events with two server processes on one PostgreSQL database, both working the job queue: concurrent
 * calls spread over both cross the low-balance threshold and the budget's shares once each, and every
 * event reaches the receiver exactly once, as does every alert mail. PGlite admits one process, so
 * this needs PostgreSQL.
 */
describe.skipIf(!serverUrl)("events with two server processes (needs DATABASE_URL)", () => {
  let modelServer: StubModelServer;
  let receiver: LocalServer;
  let storage: ProcessStorage;
  let database: DatabaseHandle;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    modelServer = await startModelServerStub({ answers: { "/image-background-removal": "png" } });
    modelServer.control.delayMs = 50;
    receiver = await startLocalServer((_request, response) => {
      response.writeHead(200);
      response.end("ok");
    });
    storage = await createProcessStorage();
    database = openStorage(storage);
    const env = {
      ...storage.env,
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal",
      ORGANIZATION_QUEUED_CALLS: "0",
      API_KEY_REQUESTS_PER_MINUTE: "0",
    };
    await seedAccount(storage, 0n, env);
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop("SIGTERM"), b?.stop("SIGTERM")]);
    await database?.close();
    await storage?.remove();
    await modelServer?.close();
    await receiver?.close();
  });

  it("reports each crossing once and delivers each event once, whichever process handles it", async () => {
    const account = await seedAccount(storage, 20n * PRICE);
    const db = database.db;
    // Below the threshold after the fifth call; the budget's shares after the 5th, 8th and 10th.
    await db.insert(alertSettings).values({
      organizationId: account.organizationId,
      lowBalanceMicros: 15n * PRICE + PRICE / 2n,
      monthlyBudgetMicros: 10n * PRICE,
    });
    await db.insert(webhookEndpoints).values({
      organizationId: account.organizationId,
      url: `${receiver.url}/hook`,
      events: ["request.succeeded", "balance.low", "budget.threshold"],
      secret: "whsec_dHdvLXByb2Nlc3Nlcy1zZWNyZXQ=",
    });

    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        callFeature([a, b][index % 2] as ServerProcess, account.apiKey, BACKGROUND_REMOVAL),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);

    const events = await db
      .select()
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, account.organizationId));
    const byType = (type: string) => events.filter((event) => event.type === type);
    expect(byType("request.succeeded")).toHaveLength(CALLS);
    expect(byType("balance.low")).toHaveLength(1);
    expect(
      byType("budget.threshold")
        .map((event) => (event.payload as { data: { percent: number } }).data.percent)
        .sort((x, y) => x - y),
    ).toEqual([50, 80, 100]);

    await waitFor("every delivery to succeed", async () => {
      const rows = await db.select().from(webhookDeliveries);
      return rows.length === events.length && rows.every((row) => row.status === "succeeded");
    });
    const ids = receiver.requests.map((request) => String(request.headers["webhook-id"]));
    expect(ids).toHaveLength(events.length);
    expect(new Set(ids)).toEqual(new Set(events.map((event) => event.id)));

    const outbox = new OutboxMailer(join(storage.dataDir, "outbox"), "test@example.com", undefined);
    const alertMails = async () =>
      (await outbox.list()).filter(
        (mail) =>
          mail.to === account.email &&
          (mail.subject.startsWith("Low balance") || mail.subject.includes("budget")),
      );
    await waitFor("the alert mails", async () => (await alertMails()).length >= 4);
    // Both workers had time to send any duplicate; there is none.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await alertMails()).toHaveLength(4);
  }, 120_000);
});

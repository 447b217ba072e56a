import { WEBHOOK_HISTORY_RETENTION_DAYS, type WebhookEventBody } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundedAccount } from "../../../test/key-fixtures";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizationEvents, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { deleteExpiredEventHistory } from "./events.service";

const DAY_MS = 24 * 3_600_000;

describe("event and delivery retention", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it(`deletes events and finished deliveries older than ${WEBHOOK_HISTORY_RETENTION_DAYS} days, keeping pending ones`, async () => {
    const db = testApp.database.db;
    const { organizationId } = await fundedAccount(testApp, 0n);
    const now = new Date("2026-11-25T12:00:00Z");
    const old = new Date(now.getTime() - (WEBHOOK_HISTORY_RETENTION_DAYS + 1) * DAY_MS);
    const recent = new Date(now.getTime() - (WEBHOOK_HISTORY_RETENTION_DAYS - 1) * DAY_MS);
    const lowBalance = (at: Date): WebhookEventBody<"balance.low"> => ({
      type: "balance.low",
      timestamp: at.toISOString(),
      data: { organization_id: organizationId, balance: 1, threshold: 5 },
    });
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        organizationId,
        url: "https://hooks.example.com/prism",
        events: ["balance.low"],
        secret: "whsec_x",
      })
      .returning();
    if (!endpoint) throw new Error("no endpoint");
    await db.insert(organizationEvents).values([
      { id: "evt_old", organizationId, type: "balance.low", payload: lowBalance(old), createdAt: old },
      {
        id: "evt_recent",
        organizationId,
        type: "balance.low",
        payload: lowBalance(recent),
        createdAt: recent,
      },
    ]);
    const delivery = (eventId: string, status: "pending" | "succeeded" | "failed", createdAt: Date) => ({
      endpointId: endpoint.id,
      eventId,
      eventType: "balance.low",
      body: "{}",
      status,
      createdAt,
    });
    await db
      .insert(webhookDeliveries)
      .values([
        delivery("evt_old_succeeded", "succeeded", old),
        delivery("evt_old_failed", "failed", old),
        delivery("evt_old_pending", "pending", old),
        delivery("evt_recent", "succeeded", recent),
      ]);

    expect(await deleteExpiredEventHistory(db, now)).toEqual({ events: 1, deliveries: 2 });

    const events = await db
      .select({ id: organizationEvents.id })
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, organizationId));
    expect(events.map((event) => event.id)).toEqual(["evt_recent"]);
    const deliveries = await db
      .select({ eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(deliveries.map((row) => row.eventId).sort()).toEqual(["evt_old_pending", "evt_recent"]);

    // A second sweep, as another process's, finds nothing more.
    expect(await deleteExpiredEventHistory(db, now)).toEqual({ events: 0, deliveries: 0 });
  });
});

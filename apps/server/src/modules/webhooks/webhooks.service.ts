import { randomBytes } from "node:crypto";
import {
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_ENDPOINTS_LIMIT,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@prism/contract";
import { and, count, desc, eq } from "drizzle-orm";
import type { Database, Executor } from "../../db/client";
import { organizations, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { changedFields, recordAudit } from "../audit/audit.store";
import { queueDelivery, testEventBody } from "../events/events.service";

const NOT_FOUND_ENDPOINT = "Webhook endpoint not found.";
const NOT_FOUND_DELIVERY = "Delivery not found.";

function toEndpoint(row: typeof webhookEndpoints.$inferSelect): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** The endpoint, when it is this organization's; any other id is the same 404. */
async function requireEndpoint(db: Executor, organizationId: string, endpointId: string) {
  if (!isUuid(endpointId)) throw new AppError("not-found", NOT_FOUND_ENDPOINT);
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)));
  if (!row) throw new AppError("not-found", NOT_FOUND_ENDPOINT);
  return row;
}

export async function listEndpoints(db: Database, organizationId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(webhookEndpoints.createdAt);
  return rows.map(toEndpoint);
}

export async function createEndpoint(
  db: Database,
  organizationId: string,
  input: { url: string; events: WebhookEventType[] },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  return db.transaction(async (tx) => {
    // The organization's row lock serializes concurrent inserts, so the limit holds.
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    const [existing] = await tx
      .select({ total: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, organizationId));
    if ((existing?.total ?? 0) >= WEBHOOK_ENDPOINTS_MAX)
      throw new AppError("invalid-input", WEBHOOK_ENDPOINTS_LIMIT);
    const secret = newSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ organizationId, url: input.url, events: input.events, secret })
      .returning();
    if (!row) throw new Error("endpoint insert returned no row");
    await recordAudit(tx, {
      organizationId,
      action: "webhook-endpoint.created",
      target: { type: "webhook-endpoint", id: row.id },
      after: { url: row.url, events: row.events },
    });
    return { endpoint: toEndpoint(row), secret };
  });
}

export async function updateEndpoint(
  db: Database,
  organizationId: string,
  endpointId: string,
  input: { url: string; events: WebhookEventType[]; enabled: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, organizationId, endpointId);
    await tx
      .update(webhookEndpoints)
      .set({
        url: input.url,
        events: input.events,
        enabled: input.enabled,
        // Enabled by a person: the server's reason and the failure clock start over.
        ...(input.enabled && !endpoint.enabled ? { disabledReason: null, failingSince: null } : {}),
        ...(!input.enabled ? { disabledReason: null } : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await recordAudit(tx, {
      organizationId,
      action: "webhook-endpoint.updated",
      target: { type: "webhook-endpoint", id: endpoint.id },
      ...changedFields(
        { url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled },
        { url: input.url, events: input.events, enabled: input.enabled },
      ),
    });
  });
}

export async function deleteEndpoint(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, organizationId, endpointId);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    await recordAudit(tx, {
      organizationId,
      action: "webhook-endpoint.deleted",
      target: { type: "webhook-endpoint", id: endpoint.id },
      before: { url: endpoint.url, events: endpoint.events },
    });
  });
}

export async function listDeliveries(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<WebhookDelivery[]> {
  const endpoint = await requireEndpoint(db, organizationId, endpointId);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(WEBHOOK_DELIVERIES_LISTED);
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    durationMs: row.durationMs,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** A new delivery of a logged event, same id and body, with a fresh set of tries. */
export async function resendDelivery(
  db: Database,
  organizationId: string,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  const endpoint = await requireEndpoint(db, organizationId, endpointId);
  if (!isUuid(deliveryId)) throw new AppError("not-found", NOT_FOUND_DELIVERY);
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)));
  if (!delivery) throw new AppError("not-found", NOT_FOUND_DELIVERY);
  await db.transaction((tx) => queueDelivery(tx, endpoint.id, delivery.eventId, delivery.body));
}

export async function sendTestEvent(db: Database, organizationId: string, endpointId: string): Promise<void> {
  const endpoint = await requireEndpoint(db, organizationId, endpointId);
  const eventId = `evt_test_${randomBytes(12).toString("hex")}`;
  await db.transaction((tx) => queueDelivery(tx, endpoint.id, eventId, testEventBody(organizationId)));
}

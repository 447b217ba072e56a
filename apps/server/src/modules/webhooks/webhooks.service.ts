import { randomBytes } from "node:crypto";
import {
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_ENDPOINTS_LIMIT,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { changedFields, recordAudit } from "../audit/audit.store";
import { queueDelivery, testEventBody } from "../events/events.service";
import { callWebhookSecret } from "./call-webhooks";
import { newWebhookSecret } from "./webhook-secret";
import {
  countEndpoints,
  type DeliveryRow,
  deleteEndpointRow,
  type EndpointRow,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  listCallDeliveryRows,
  listDeliveryRows,
  listEndpointRows,
  lockOrganization,
  replaceCallWebhookSecret,
  updateEndpointRow,
} from "./webhooks.store";

const NOT_FOUND_ENDPOINT = "Webhook endpoint not found.";
const NOT_FOUND_DELIVERY = "Delivery not found.";

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/*
 * Webhooks are the owner's alone (decision 012): an endpoint sends the organization's calls, payments
 * and balance out of it, and its secret lets the holder forge events for the receiver. Every webhook
 * call declares `owner`, which the gate (`resolveCaller`) checks before these run (decision 023).
 */

/** The endpoint, when it is this organization's; any other id is the same 404. */
async function requireEndpoint(db: Executor, organizationId: string, endpointId: string) {
  if (!isUuid(endpointId)) throw new AppError("not-found", NOT_FOUND_ENDPOINT);
  const row = await findEndpoint(db, organizationId, endpointId);
  if (!row) throw new AppError("not-found", NOT_FOUND_ENDPOINT);
  return row;
}

export async function listEndpoints(db: Database, organizationId: string): Promise<WebhookEndpoint[]> {
  const rows = await listEndpointRows(db, organizationId);
  return rows.map(toEndpoint);
}

export async function createEndpoint(
  db: Database,
  organizationId: string,
  input: { url: string; events: WebhookEventType[] },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  return db.transaction(async (tx) => {
    // The organization's row lock serializes concurrent inserts, so the limit holds.
    await lockOrganization(tx, organizationId);
    if ((await countEndpoints(tx, organizationId)) >= WEBHOOK_ENDPOINTS_MAX)
      throw new AppError("invalid-input", WEBHOOK_ENDPOINTS_LIMIT);
    const secret = newWebhookSecret();
    const row = await insertEndpoint(tx, { organizationId, url: input.url, events: input.events, secret });
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
    await updateEndpointRow(tx, endpoint.id, {
      url: input.url,
      events: input.events,
      enabled: input.enabled,
      // Enabled by a person: the server's reason and the failure clock start over.
      ...(input.enabled && !endpoint.enabled ? { disabledReason: null, failingSince: null } : {}),
      ...(!input.enabled ? { disabledReason: null } : {}),
    });
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
    await deleteEndpointRow(tx, endpoint.id);
    await recordAudit(tx, {
      organizationId,
      action: "webhook-endpoint.deleted",
      target: { type: "webhook-endpoint", id: endpoint.id },
      before: { url: endpoint.url, events: endpoint.events },
    });
  });
}

/** The organization's per-call webhook secret (made on first use). */
export async function getCallWebhookSecret(db: Database, organizationId: string) {
  return { secret: await callWebhookSecret(db, organizationId) };
}

/** Replaces the per-call webhook secret, audit-logged (the secret itself is never logged). */
export async function rotateCallWebhookSecret(db: Database, organizationId: string) {
  const secret = newWebhookSecret();
  await db.transaction(async (tx) => {
    await replaceCallWebhookSecret(tx, organizationId, secret);
    await recordAudit(tx, {
      organizationId,
      action: "call-webhook-secret.rotated",
      target: { type: "organization", id: organizationId },
    });
  });
  return { secret };
}

/** The newest per-call webhook deliveries of the organization's calls. */
export async function listCallDeliveries(db: Database, organizationId: string) {
  const rows = await listCallDeliveryRows(db, organizationId, WEBHOOK_DELIVERIES_LISTED);
  return rows.map(({ delivery }) => ({
    ...toDelivery(delivery),
    requestId: delivery.requestId ?? "",
    url: delivery.url ?? "",
  }));
}

export async function listDeliveries(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<WebhookDelivery[]> {
  const endpoint = await requireEndpoint(db, organizationId, endpointId);
  const rows = await listDeliveryRows(db, endpoint.id, WEBHOOK_DELIVERIES_LISTED);
  return rows.map(toDelivery);
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
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
  };
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
  const delivery = await findDelivery(db, endpoint.id, deliveryId);
  if (!delivery) throw new AppError("not-found", NOT_FOUND_DELIVERY);
  await db.transaction((tx) => queueDelivery(tx, endpoint.id, delivery.eventId, delivery.body));
}

export async function sendTestEvent(db: Database, organizationId: string, endpointId: string): Promise<void> {
  const endpoint = await requireEndpoint(db, organizationId, endpointId);
  const eventId = `evt_test_${randomBytes(12).toString("hex")}`;
  await db.transaction((tx) => queueDelivery(tx, endpoint.id, eventId, testEventBody(organizationId)));
}

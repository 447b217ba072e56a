import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  callWebhookSecrets,
  featureRequests,
  organizations,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema";

/** Data access of the webhooks module: endpoints and the log of their deliveries. */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The endpoint when it is this organization's. */
export async function findEndpoint(
  db: Executor,
  organizationId: string,
  endpointId: string,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)));
  return row;
}

/** The organization's endpoints, oldest first. */
export function listEndpointRows(db: Executor, organizationId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(webhookEndpoints.createdAt);
}

/** Locks the organization's row, so concurrent endpoint inserts are serialized and the limit holds. */
export async function lockOrganization(tx: Executor, organizationId: string): Promise<void> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
}

export async function countEndpoints(tx: Executor, organizationId: string): Promise<number> {
  const [existing] = await tx
    .select({ total: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId));
  return existing?.total ?? 0;
}

export async function insertEndpoint(
  tx: Executor,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<EndpointRow> {
  const [row] = await tx.insert(webhookEndpoints).values(values).returning();
  if (!row) throw new Error("endpoint insert returned no row");
  return row;
}

export async function updateEndpointRow(
  tx: Executor,
  endpointId: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<void> {
  await tx.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, endpointId));
}

export async function deleteEndpointRow(tx: Executor, endpointId: string): Promise<void> {
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
}

/** The endpoint's latest `limit` deliveries, newest first. */
export function listDeliveryRows(db: Executor, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/** The delivery when it belongs to the endpoint. */
export async function findDelivery(
  db: Executor,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return delivery;
}

/** A delivery with its endpoint, as the delivery job reads it. */
export async function findDeliveryWithEndpoint(
  db: Executor,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow } | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row;
}

export async function updateDeliveryRow(
  tx: Executor,
  deliveryId: string,
  values: Partial<typeof webhookDeliveries.$inferInsert>,
): Promise<void> {
  await tx.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, deliveryId));
}

/**
 * Starts the endpoint's failure clock at `attemptAt` unless it already runs; returns when the clock
 * started (the endpoint's first failure since its last success).
 */
export async function markEndpointFailing(
  tx: Executor,
  endpointId: string,
  attemptAt: Date,
): Promise<Date | null | undefined> {
  const [failing] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${attemptAt})` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ failingSince: webhookEndpoints.failingSince });
  return failing?.failingSince;
}

/** Disables the endpoint if it is still enabled; true only for the call that disabled it. */
export async function disableEnabledEndpoint(
  tx: Executor,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  const disabled = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return disabled.length > 0;
}

/** A per-call webhook's delivery, with the organization of its call (undefined for an endpoint's). */
export async function findCallDelivery(
  db: Executor,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; organizationId: string } | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, organizationId: featureRequests.organizationId })
    .from(webhookDeliveries)
    .innerJoin(featureRequests, eq(featureRequests.id, webhookDeliveries.requestId))
    .where(and(eq(webhookDeliveries.id, deliveryId), isNull(webhookDeliveries.endpointId)));
  return row;
}

/**
 * The organization's per-call webhook signing secret, made with `fresh` the first time it is asked
 * for (of two processes making it at once, the first insert wins and both read it).
 */
export async function callWebhookSecretOf(
  tx: Executor,
  organizationId: string,
  fresh: string,
): Promise<string> {
  await tx.insert(callWebhookSecrets).values({ organizationId, secret: fresh }).onConflictDoNothing();
  const [row] = await tx
    .select({ secret: callWebhookSecrets.secret })
    .from(callWebhookSecrets)
    .where(eq(callWebhookSecrets.organizationId, organizationId));
  if (!row) throw new Error("the call webhook secret was not written");
  return row.secret;
}

/** Replaces the organization's per-call webhook signing secret (rotation). */
export async function replaceCallWebhookSecret(tx: Executor, organizationId: string, secret: string) {
  await tx
    .insert(callWebhookSecrets)
    .values({ organizationId, secret })
    .onConflictDoUpdate({
      target: callWebhookSecrets.organizationId,
      set: { secret, createdAt: new Date() },
    });
}

/** The newest per-call webhook deliveries of an organization's calls (the Webhooks page's log). */
export function listCallDeliveryRows(db: Executor, organizationId: string, limit: number) {
  return db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(featureRequests, eq(featureRequests.id, webhookDeliveries.requestId))
    .where(and(eq(featureRequests.organizationId, organizationId), isNull(webhookDeliveries.endpointId)))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
}

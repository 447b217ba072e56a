import type { WebhookEventType } from "@prism/contract";
import { and, eq, lt, ne, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  organizationEvents,
  organizationMembers,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema";

/** Data access of the events module: the event log, the deliveries queued for it, who gets alerts. */

export async function insertEvent(
  tx: Executor,
  event: typeof organizationEvents.$inferInsert,
): Promise<void> {
  await tx.insert(organizationEvents).values(event);
}

/** The organization's enabled endpoints that subscribed to `type`. */
export function listSubscribedEndpoints(tx: Executor, organizationId: string, type: WebhookEventType) {
  return tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organizationId, organizationId),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
      ),
    );
}

/**
 * Whether an enabled endpoint of the organization listens to `type`: an expression, so a call's
 * settlement learns it in its own statement and emits the call's events only when someone listens.
 */
export const subscribed = (organizationId: string, type: WebhookEventType): SQL =>
  sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.organizationId} = ${organizationId}
    and ${webhookEndpoints.enabled} and ${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb)`;

/** A pending delivery of an event to one endpoint; returns its id. */
export async function insertDelivery(
  tx: Executor,
  values: typeof webhookDeliveries.$inferInsert,
): Promise<string> {
  const [delivery] = await tx
    .insert(webhookDeliveries)
    .values(values)
    .returning({ id: webhookDeliveries.id });
  if (!delivery) throw new Error("delivery insert returned no row");
  return delivery.id;
}

/** Every member of the organization with their email and stored permissions. */
export function listMembersWithEmail(tx: Executor, organizationId: string) {
  return tx
    .select({
      userId: organizationMembers.userId,
      email: users.email,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(eq(organizationMembers.organizationId, organizationId));
}

/** Deletes events created before `cutoff`; returns how many. */
export async function deleteEventsBefore(db: Executor, cutoff: Date): Promise<number> {
  const events = await db
    .delete(organizationEvents)
    .where(lt(organizationEvents.createdAt, cutoff))
    .returning({ id: organizationEvents.id });
  return events.length;
}

/** Deletes deliveries created before `cutoff` that are no longer pending; returns how many. */
export async function deleteFinishedDeliveriesBefore(db: Executor, cutoff: Date): Promise<number> {
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, cutoff), ne(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return deliveries.length;
}

import { randomUUID } from "node:crypto";
import {
  hasPermission,
  WEBHOOK_HISTORY_RETENTION_DAYS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventBody,
  type WebhookEventData,
  type WebhookEventType,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import type { MailMessage } from "../../providers/mail/mailer";
import { effectivePermissions } from "../access/access.service";
import { listActiveProjectIds } from "../access/access.store";
import { ALERT_MAIL_JOB, WEBHOOK_DELIVERY_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";
import {
  deleteEventsBefore,
  deleteFinishedDeliveriesBefore,
  insertDelivery,
  insertEvent,
  listMembersWithEmail,
  listSubscribedEndpoints,
} from "./events.store";

/** The body every receiver gets, per the Standard Webhooks specification. */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Records an event of the organization in the caller's transaction and queues one delivery per
 * enabled endpoint that subscribed to its type. Everything commits or rolls back with the change
 * that caused it, so an event is reported exactly when it happened; each delivery is one job, which
 * the queue's claim hands to exactly one worker of whichever process.
 */
export async function emitEvent<T extends WebhookEventType>(
  tx: Executor,
  organizationId: string,
  type: T,
  data: WebhookEventData<T>,
): Promise<string> {
  const id = `evt_${randomUUID().replaceAll("-", "")}`;
  const body: WebhookEventBody<T> = { type, timestamp: new Date().toISOString(), data };
  await insertEvent(tx, { id, organizationId, type, payload: body });
  const endpoints = await listSubscribedEndpoints(tx, organizationId, type);
  for (const endpoint of endpoints) await queueDelivery(tx, endpoint.id, id, body);
  return id;
}

/** One delivery of an event to one endpoint, and the job that sends it. */
export async function queueDelivery(
  tx: Executor,
  endpointId: string,
  eventId: string,
  body: WebhookBody | string,
): Promise<string> {
  const serialized = typeof body === "string" ? body : JSON.stringify(body);
  const eventType = typeof body === "string" ? (JSON.parse(body) as WebhookBody).type : body.type;
  const deliveryId = await insertDelivery(tx, {
    endpointId,
    eventId,
    eventType,
    body: serialized,
    nextAttemptAt: new Date(),
  });
  await enqueueJob(tx, WEBHOOK_DELIVERY_JOB, { deliveryId }, new Date(), {
    key: `webhook-delivery:${deliveryId}`,
  });
  return deliveryId;
}

/** The test event "Send test event" delivers to one endpoint. */
export function testEventBody(organizationId: string): WebhookBody {
  return {
    type: WEBHOOK_TEST_EVENT,
    timestamp: new Date().toISOString(),
    data: { organization_id: organizationId, message: "This is a test event." },
  };
}

/** The owner and the members who may see payments: who money alerts go to. */
export async function paymentsRecipients(tx: Executor, organizationId: string) {
  const members = await listMembersWithEmail(tx, organizationId);
  const projectIds = await listActiveProjectIds(tx, organizationId);
  return members.filter((member) =>
    hasPermission(
      effectivePermissions(member.isOwner, member.permissions, projectIds),
      "organization.payments",
    ),
  );
}

/** One alert's Message-ID for one recipient: a second send of the same mail is shown once. */
export function alertMessageId(eventId: string, userId: string): string {
  return `<alert.${eventId}.${userId}@prism-console>`;
}

/**
 * Queues an alert mail per recipient in the caller's transaction, keyed by the event and the
 * recipient: however many processes or retries see the same event, each person gets it once.
 */
export async function queueAlertMails(
  tx: Executor,
  input: {
    eventId: string;
    recipients: readonly { userId: string; email: string }[];
    /** The mail for one address. */
    compose: (to: string) => MailMessage;
  },
): Promise<void> {
  for (const recipient of input.recipients) {
    const mail: MailMessage = {
      ...input.compose(recipient.email),
      messageId: alertMessageId(input.eventId, recipient.userId),
    };
    await enqueueJob(tx, ALERT_MAIL_JOB, { ...mail }, new Date(), {
      key: `alert-mail:${input.eventId}:${recipient.userId}`,
    });
  }
}

/**
 * Deletes events and finished deliveries older than WEBHOOK_HISTORY_RETENTION_DAYS (the request
 * sweeper calls it), so neither table grows without end. Deliveries still pending stay until their
 * retries end. Returns how many rows of each went.
 */
export async function deleteExpiredEventHistory(
  db: Database,
  now = new Date(),
): Promise<{ events: number; deliveries: number }> {
  const cutoff = new Date(now.getTime() - WEBHOOK_HISTORY_RETENTION_DAYS * 24 * 3_600_000);
  const events = await deleteEventsBefore(db, cutoff);
  const deliveries = await deleteFinishedDeliveriesBefore(db, cutoff);
  return { events, deliveries };
}

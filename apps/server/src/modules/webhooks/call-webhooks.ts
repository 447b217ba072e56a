import { randomUUID } from "node:crypto";
import { CALL_WEBHOOK_EVENT_TYPES, type CallWebhookEvent, WEBHOOK_TARGET_REFUSED } from "@prism/contract";
import type { Executor } from "../../db/client";
import type { featureRequests } from "../../db/schema";
import { AppError } from "../../errors";
import { insertDelivery } from "../events/events.store";
import { WEBHOOK_DELIVERY_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";
import { checkLiteralHost, TargetRefusedError } from "./ssrf-guard";
import { newWebhookSecret } from "./webhook-secret";
import { callWebhookSecretOf } from "./webhooks.store";

/**
 * Per-call webhooks (issue 29, decision 019): a feature call may name an https URL in its `webhook`
 * field, and the events it wants there (`start`, `completed`). They go through the same delivery job
 * as the organization's endpoints — Standard Webhooks signatures, the SSRF guard at send time,
 * retries on the same schedule, the delivery log — signed with the organization's per-call webhook
 * secret (shown on the Webhooks page), since a URL given with one call has no endpoint to hold a
 * secret. The body is the call as `GET /v1/requests/{id}` answers it, rendered at the first attempt
 * (so its file URLs are absolute on the deployment's origin) and kept, so retries send the same bytes.
 */

/**
 * Refuses a per-call webhook URL the server would never send to: http in production, and hosts
 * written as private addresses where only public ones are allowed. Names are checked again at send
 * time against what they resolve to.
 */
export function checkCallWebhookTarget(url: string, options: { allowPrivate: boolean }): void {
  const parsed = new URL(url);
  if (!options.allowPrivate && parsed.protocol !== "https:") {
    throw new AppError("invalid-input", "webhook: must be an https:// URL", { field: "webhook" });
  }
  try {
    checkLiteralHost(parsed.hostname, options.allowPrivate);
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      throw new AppError("invalid-input", `webhook: ${WEBHOOK_TARGET_REFUSED}`, { field: "webhook" });
    }
    throw error;
  }
}

type CallRow = Pick<typeof featureRequests.$inferSelect, "id" | "webhookUrl" | "webhookEvents">;

/**
 * Queues the call's webhook for `event` in the caller's transaction (the one that started or ended
 * the call), when the call asked for that event.
 */
export async function queueCallWebhook(tx: Executor, row: CallRow, event: CallWebhookEvent): Promise<void> {
  if (!row.webhookUrl || !(row.webhookEvents ?? []).includes(event)) return;
  const deliveryId = await insertDelivery(tx, {
    requestId: row.id,
    url: row.webhookUrl,
    eventId: `evt_${randomUUID().replaceAll("-", "")}`,
    eventType: CALL_WEBHOOK_EVENT_TYPES[event],
    // Rendered at the first attempt (see above).
    body: "",
    nextAttemptAt: new Date(),
  });
  await enqueueJob(tx, WEBHOOK_DELIVERY_JOB, { deliveryId }, new Date(), {
    key: `webhook-delivery:${deliveryId}`,
  });
}

/** The organization's per-call webhook signing secret, made on first use. */
export function callWebhookSecret(tx: Executor, organizationId: string): Promise<string> {
  return callWebhookSecretOf(tx, organizationId, newWebhookSecret());
}

import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import {
  PRODUCT_NAME,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_DISABLED_AFTER_FAILURES,
  WEBHOOK_RECEIVER_TIMED_OUT,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TARGET_REFUSED,
  WEBHOOK_TIMEOUT_MS,
} from "@prism/contract";
import { Webhook } from "standardwebhooks";
import type { Database, Executor } from "../../db/client";
import type { Mailer } from "../../providers/mail/mailer";
import { organizationAlertMail } from "../../providers/mail/templates";
import { recordAudit } from "../audit/audit.store";
import { paymentsRecipients, queueAlertMails } from "../events/events.service";
import { ALERT_MAIL_JOB, type JobHandlers, WEBHOOK_DELIVERY_JOB } from "../jobs/job-kinds";
import { JobRetryLater } from "../jobs/job-queue";
import type { Metrics, WebhookDeliveryOutcome } from "../metrics/metrics";
import { callWebhookSecret } from "./call-webhooks";
import { checkLiteralHost, guardedLookup, TargetRefusedError } from "./ssrf-guard";
import {
  disableEnabledEndpoint,
  type EndpointRow,
  findCallDelivery,
  findDeliveryWithEndpoint,
  markEndpointFailing,
  updateDeliveryRow,
  updateEndpointRow,
} from "./webhooks.store";

export interface DeliveryDeps {
  db: Database;
  mailer: Mailer;
  metrics?: Pick<Metrics, "webhookDeliveries"> | undefined;
  /** Outside production, receivers on this machine or the local network are allowed (development, tests). */
  allowPrivateTargets: boolean;
  /** Delay before each retry; the contract's Standard Webhooks schedule unless a test gives another. */
  retryScheduleMs?: readonly number[];
  /** How long a try waits for the receiver: WEBHOOK_TIMEOUT_MS unless a test gives a shorter one. */
  timeoutMs?: number;
  /** The clock deliveries and the day-of-failures rule read (tests move it). */
  now?: () => Date;
  /**
   * The body of a per-call webhook (the call as `GET /v1/requests/{id}` answers it), rendered at its
   * first attempt; absent, per-call deliveries are not sent.
   */
  renderCallWebhook?: (requestId: string, eventType: string) => Promise<string>;
}

interface Answer {
  status: number | null;
  body: string;
}

/** POSTs the signed body; never follows redirects, gives up after the timeout, keeps 1 KB of the answer. */
function send(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number; signal: AbortSignal },
): Promise<Answer> {
  checkLiteralHost(url.hostname, options.allowPrivate);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        lookup: guardedLookup(options.allowPrivate),
        signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]),
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < WEBHOOK_RESPONSE_BODY_MAX_BYTES) chunks.push(chunk);
          size += chunk.length;
          // Enough kept: the rest of a large answer is not read at all.
          if (size >= WEBHOOK_RESPONSE_BODY_MAX_BYTES) response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_BODY_MAX_BYTES).toString("utf8"),
          });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function describeFailure(error: unknown): string {
  if (error instanceof TargetRefusedError) return WEBHOOK_TARGET_REFUSED;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return WEBHOOK_RECEIVER_TIMED_OUT;
  const code = (error as { code?: unknown }).code;
  return `The receiver could not be reached${typeof code === "string" ? ` (${code})` : ""}.`;
}

/**
 * The job handlers of events: webhook deliveries and alert mails. A delivery signs its stored body
 * (Standard Webhooks: webhook-id is the event id, so a receiver deduplicates retries and resends),
 * and records each try in the delivery log; a failed try is retried on the schedule, and an endpoint
 * whose deliveries failed for a day is disabled, its owner mailed once.
 */
export function eventJobHandlers(deps: DeliveryDeps): JobHandlers {
  const schedule = deps.retryScheduleMs ?? WEBHOOK_RETRY_SCHEDULE_MS;
  const now = deps.now ?? (() => new Date());
  return {
    [ALERT_MAIL_JOB]: async (payload) => {
      await deps.mailer.send(payload);
    },
    [WEBHOOK_DELIVERY_JOB]: async (payload, { signal }) => {
      const { deliveryId } = payload;
      const row = await findDeliveryWithEndpoint(deps.db, deliveryId);
      if (!row) {
        await deliverCallWebhook(deps, deliveryId, schedule, now, signal);
        return;
      }
      if (row.delivery.status !== "pending") return;
      const { delivery, endpoint } = row;
      if (!endpoint.enabled) {
        await updateDeliveryRow(deps.db, delivery.id, {
          status: "failed",
          nextAttemptAt: null,
          responseBody: "The endpoint is disabled.",
        });
        return;
      }
      const attemptAt = now();
      const attempt = delivery.attempts + 1;
      const signature = new Webhook(endpoint.secret).sign(delivery.eventId, attemptAt, delivery.body);
      const headers = {
        "content-type": "application/json",
        "user-agent": `${PRODUCT_NAME}-Webhooks`,
        "webhook-id": delivery.eventId,
        "webhook-timestamp": Math.floor(attemptAt.getTime() / 1000).toString(),
        "webhook-signature": signature,
      };
      const started = performance.now();
      let answer: Answer;
      try {
        answer = await send(new URL(endpoint.url), headers, delivery.body, {
          allowPrivate: deps.allowPrivateTargets,
          timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
          signal,
        });
      } catch (error) {
        answer = { status: null, body: describeFailure(error) };
      }
      const durationMs = Math.round(performance.now() - started);
      const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
      const logged = {
        attempts: attempt,
        responseStatus: answer.status,
        responseBody: answer.body,
        durationMs,
        lastAttemptAt: attemptAt,
      };
      deps.metrics?.webhookDeliveries.inc({ outcome: deliveryOutcome(ok) });
      if (ok) {
        await deps.db.transaction(async (tx) => {
          await updateDeliveryRow(tx, delivery.id, { ...logged, status: "succeeded", nextAttemptAt: null });
          await updateEndpointRow(tx, endpoint.id, { failingSince: null });
        });
        return;
      }
      const delayMs = schedule[attempt - 1];
      const retry = await deps.db.transaction(async (tx) => {
        const failingSince = await markEndpointFailing(tx, endpoint.id, attemptAt);
        const failingFor = attemptAt.getTime() - (failingSince ?? attemptAt).getTime();
        if (failingFor >= WEBHOOK_DISABLE_AFTER_MS) {
          await disableFailingEndpoint(tx, endpoint);
        }
        const retrying = delayMs !== undefined && failingFor < WEBHOOK_DISABLE_AFTER_MS;
        await updateDeliveryRow(tx, delivery.id, {
          ...logged,
          status: retrying ? "pending" : "failed",
          nextAttemptAt: retrying ? new Date(attemptAt.getTime() + delayMs) : null,
        });
        return retrying;
      });
      if (retry && delayMs !== undefined) throw new JobRetryLater(delayMs);
    },
  };
}

/**
 * One try of a per-call webhook (call-webhooks.ts): like an endpoint's, without an endpoint to mark
 * failing or disable; the organization's per-call secret signs it.
 */
async function deliverCallWebhook(
  deps: DeliveryDeps,
  deliveryId: string,
  schedule: readonly number[],
  now: () => Date,
  signal: AbortSignal,
): Promise<void> {
  const found = await findCallDelivery(deps.db, deliveryId);
  const url = found?.delivery.url;
  const requestId = found?.delivery.requestId;
  if (found?.delivery.status !== "pending" || !url || !requestId) return;
  const { delivery, organizationId } = found;
  let body = delivery.body;
  if (body === "") {
    if (!deps.renderCallWebhook) return;
    body = await deps.renderCallWebhook(requestId, delivery.eventType);
    await updateDeliveryRow(deps.db, delivery.id, { body });
  }
  const secret = await callWebhookSecret(deps.db, organizationId);
  const attemptAt = now();
  const attempt = delivery.attempts + 1;
  const headers = {
    "content-type": "application/json",
    "user-agent": `${PRODUCT_NAME}-Webhooks`,
    "webhook-id": delivery.eventId,
    "webhook-timestamp": Math.floor(attemptAt.getTime() / 1000).toString(),
    "webhook-signature": new Webhook(secret).sign(delivery.eventId, attemptAt, body),
  };
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await send(new URL(url), headers, body, {
      allowPrivate: deps.allowPrivateTargets,
      timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    answer = { status: null, body: describeFailure(error) };
  }
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  deps.metrics?.webhookDeliveries.inc({ outcome: deliveryOutcome(ok) });
  const delayMs = ok ? undefined : schedule[attempt - 1];
  await updateDeliveryRow(deps.db, delivery.id, {
    attempts: attempt,
    responseStatus: answer.status,
    responseBody: answer.body,
    durationMs: Math.round(performance.now() - started),
    lastAttemptAt: attemptAt,
    status: ok ? "succeeded" : delayMs !== undefined ? "pending" : "failed",
    nextAttemptAt: delayMs !== undefined ? new Date(attemptAt.getTime() + delayMs) : null,
  });
  if (delayMs !== undefined) throw new JobRetryLater(delayMs);
}

/** Disables the endpoint once (a conditional update) and queues the owner's mail in the same transaction. */
async function disableFailingEndpoint(tx: Executor, endpoint: EndpointRow): Promise<void> {
  if (!(await disableEnabledEndpoint(tx, endpoint.id, WEBHOOK_DISABLED_AFTER_FAILURES))) return;
  await recordAudit(tx, {
    organizationId: endpoint.organizationId,
    action: "webhook-endpoint.disabled",
    target: { type: "webhook-endpoint", id: endpoint.id },
    actor: { kind: "system" },
    before: { enabled: true },
    after: { enabled: false, reason: WEBHOOK_DISABLED_AFTER_FAILURES },
  });
  const owners = (await paymentsRecipients(tx, endpoint.organizationId)).filter((member) => member.isOwner);
  await queueAlertMails(tx, {
    eventId: `endpoint-disabled:${endpoint.id}:${Date.now()}`,
    recipients: owners,
    compose: (to) =>
      organizationAlertMail(to, "A webhook endpoint was disabled", [
        `Deliveries to ${endpoint.url} failed for a day, so ${PRODUCT_NAME} disabled the endpoint.`,
        "Fix the receiver, then enable the endpoint again on the Webhooks page of the console.",
      ]),
  });
}

function deliveryOutcome(ok: boolean): WebhookDeliveryOutcome {
  return ok ? "succeeded" : "failed";
}

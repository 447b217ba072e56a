import {
  type CallWebhookBody,
  callStateOf,
  microsToUsd,
  type RequestDetail,
  requestCancelPath,
  requestDetailPath,
  requestDetailSchema,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import type { featureRequests } from "../../db/schema";
import { queuePositionOf } from "./call-queue.store";
import { findRequestRow, toHistoryRecord, withAbsoluteFileUrls } from "./feature-requests.store";

type RequestRow = typeof featureRequests.$inferSelect;

/**
 * One call as its caller follows it (GET /v1/requests/{id}, the 202 of an asynchronous call, and the
 * per-call webhook's `data`): the history record with the call's state, queue position, times,
 * reservation, error and URLs. With `origin` (PUBLIC_URL, or the deployment's origin for webhooks) its
 * URLs are absolute, as API clients outside a browser need them.
 */
export function requestDetailOf(
  row: RequestRow,
  options: { position: number | null; origin: string | undefined },
): RequestDetail {
  const record = toHistoryRecord(row);
  const origin = options.origin ?? "";
  const ended = row.status === "done" || row.status === "error" || row.status === "canceled";
  return requestDetailSchema.parse({
    ...(options.origin ? withAbsoluteFileUrls(record, options.origin) : record),
    endpoint: row.endpoint,
    status: callStateOf(row.status),
    queue_position: row.status === "queued" ? options.position : null,
    started_date: row.startedAt?.toISOString() ?? null,
    completed_date: ended ? (row.completedAt?.toISOString() ?? null) : null,
    reserved: microsToUsd(row.priceMicros),
    error: row.status === "error" || row.status === "canceled" ? (row.errorCode ?? "feature-failed") : null,
    error_message: row.status === "error" || row.status === "canceled" ? row.errorMessage : null,
    urls: { get: `${origin}${requestDetailPath(row.id)}`, cancel: `${origin}${requestCancelPath(row.id)}` },
  });
}

/**
 * A per-call webhook's body (call-webhooks.ts): the event and the call as GET answers it now, with
 * URLs absolute on the deployment's origin.
 */
export async function renderCallWebhook(
  db: Executor,
  requestId: string,
  eventType: string,
  origin: string,
): Promise<string> {
  const row = await findRequestRow(db, requestId);
  if (!row) throw new Error(`request ${requestId} vanished`);
  const position = row.status === "queued" ? ((await queuePositionOf(db, requestId)) ?? null) : null;
  const body: CallWebhookBody = {
    type: eventType as CallWebhookBody["type"],
    timestamp: new Date().toISOString(),
    data: requestDetailOf(row, { position, origin }),
  };
  return JSON.stringify(body);
}

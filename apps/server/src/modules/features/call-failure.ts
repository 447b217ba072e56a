import {
  CALL_ABANDONED_REASON,
  CALL_CANCELED,
  CALL_CANCELED_REASON,
  CALL_QUEUE_TIMED_OUT_REASON,
  type ErrorCode,
  errorMessageOf,
  notChargedText,
  RESTART_RETRY_AFTER_SECONDS,
} from "@prism/contract";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import { ProviderError } from "../../providers/inference/feature-provider";
import { releaseKeySpend } from "../api-keys/api-keys.store";
import { emitEvent } from "../events/events.service";
import { refundCall, type UnsuccessfulEnd } from "../ledger/call-ledger.store";
import { findOpenCallReservations } from "../ledger/ledger.store";
import { queueCallWebhook } from "../webhooks/call-webhooks";
import { findAbandonedCalls, releaseSlotsOfEndedCalls, removeLapsedSlots } from "./call-queue.store";
import { findRequestRow } from "./feature-requests.store";

/**
 * How calls that do not succeed end: failed (by their provider, a timeout, a restart, storage) or
 * canceled by their caller, each refunded exactly once (call-ledger.store's refundCall decides by the
 * row's status), and the calls a dead process left behind, found and refunded by the sweeper.
 */

/** Why a call did not succeed: the error code it answers with and the reason its record keeps. */
export interface CallFailure {
  code: ErrorCode;
  reason: string;
}

/**
 * The error a call that did not succeed answers with, from its code and reason: the same answer
 * whether the caller waited in the process that ran it or in another (which reads the row).
 */
export function callErrorOf(failure: CallFailure): AppError {
  switch (failure.code) {
    case "unprocessable-input":
    case "feature-unavailable":
      return new AppError(failure.code, failure.reason);
    case "feature-timeout":
      return new AppError("feature-timeout", errorMessageOf("feature-timeout"));
    case "service-unavailable":
      return new AppError("service-unavailable", failure.reason, {
        headers: { "retry-after": String(RESTART_RETRY_AFTER_SECONDS) },
      });
    case "request-canceled":
      return new AppError("request-canceled", CALL_CANCELED);
    default:
      return new AppError("feature-failed", notChargedText(failure.reason));
  }
}

/** A provider's failure as the call's failure: the caller's input, the provider's time, its absence. */
export function failureOfProvider(error: ProviderError): CallFailure {
  if (error.code === "invalid-input") return { code: "unprocessable-input", reason: error.message };
  if (error.code === "timeout") return { code: "feature-timeout", reason: error.message };
  if (error.code === "unavailable") return { code: "feature-unavailable", reason: error.message };
  return { code: "feature-failed", reason: error.message };
}

/** What every request event says about its call (snake_case, as the public API answers). */
export function requestEventData(row: {
  id: string;
  projectId: string;
  endpoint: string;
  apiKeyId: string | null;
}) {
  return { request_id: row.id, project_id: row.projectId, endpoint: row.endpoint, api_key_id: row.apiKeyId };
}

/**
 * Ends a call that did not succeed and gives its reservation back, once; true when this call made the
 * refund. In the same transaction: the key's spend goes back, and the organization's `request.failed`
 * event and the call's own webhook are written. `releaseSlot`: see refundCall.
 */
export async function failCall(
  db: Database,
  requestId: string,
  failure: CallFailure,
  options: { releaseSlot: boolean; end?: UnsuccessfulEnd },
): Promise<boolean> {
  const reason = failure.reason.slice(0, 500);
  return refundCall(
    db,
    {
      requestId,
      message: reason,
      code: failure.code,
      completedAt: new Date(),
      releaseSlot: options.releaseSlot,
      ...(options.end ? { end: options.end } : {}),
    },
    async (tx) => {
      await releaseKeySpend(tx, requestId);
      const row = await findRequestRow(tx, requestId);
      if (!row) return;
      if (row.status === "error") {
        await emitEvent(tx, row.organizationId, "request.failed", {
          ...requestEventData(row),
          status: "error",
          cost: 0,
          error: reason,
        });
      }
      await queueCallWebhook(tx, row, "completed");
    },
  );
}

/** The old name of a failed call's refund (reason only), kept for the places that fail with a reason. */
export function failRequest(db: Database, requestId: string, reason: string): Promise<boolean> {
  return failCall(db, requestId, { code: "feature-failed", reason }, { releaseSlot: true });
}

/** A canceled call's end: refunded, `canceled`, its slot (if it runs) given back by its runner. */
export function cancelCallRefund(db: Database, requestId: string): Promise<boolean> {
  return failCall(
    db,
    requestId,
    { code: "request-canceled", reason: CALL_CANCELED_REASON },
    { releaseSlot: false, end: "canceled" },
  );
}

/** The failure of a provider run, whatever was thrown (a non-ProviderError is a crash, logged by the caller). */
export function failureOf(error: unknown, fallbackReason: string): CallFailure {
  return error instanceof ProviderError
    ? failureOfProvider(error)
    : { code: "feature-failed", reason: fallbackReason };
}

const SWEEP_BATCH = 500;

export interface SweepCutoffs {
  /** Now, for the running calls' leases. */
  now?: Date;
  /** Queued calls created before this are failed as waiting too long (none when absent). */
  queuedBefore?: Date;
}

/**
 * Refunds and ends the calls a dead process abandoned, returning how many it refunded (another process
 * sweeping at the same moment refunds the others; together they count each call once): running calls
 * whose runner's lease ran out (or, for rows without a lease, started before `olderThan`), queued calls
 * whose inputs were never stored (admitted before `olderThan` by a process that died), queued calls that
 * waited past `queuedBefore`, and every call's reservation from before `olderThan` that has neither a
 * settlement nor a refund, row or no row (`lookBackMs` bounds how far back that ledger scan goes).
 * Slots of processes long gone and slots still held by calls that ended are freed as well. Safe with
 * several processes: refunds are idempotent and the status updates conditional.
 */
export async function sweepAbandonedRequests(
  db: Database,
  olderThan: Date,
  lookBackMs = 7 * 24 * 3_600_000,
  cutoffs: SweepCutoffs = {},
): Promise<number> {
  const now = cutoffs.now ?? new Date();
  const abandoned = await findAbandonedCalls(db, {
    now,
    startedBefore: olderThan,
    unreadyBefore: olderThan,
    queuedBefore: cutoffs.queuedBefore ?? new Date(0),
    limit: SWEEP_BATCH,
  });
  const openReservations = await findOpenCallReservations(db, {
    olderThan,
    newerThan: new Date(olderThan.getTime() - lookBackMs),
    limit: SWEEP_BATCH,
  });
  let refunded = 0;
  const ended = new Set<string>();
  for (const call of abandoned) {
    ended.add(call.id);
    const failure: CallFailure =
      call.status === "queued" && cutoffs.queuedBefore !== undefined
        ? { code: "feature-timeout", reason: CALL_QUEUE_TIMED_OUT_REASON }
        : { code: "feature-failed", reason: CALL_ABANDONED_REASON };
    if (await failCall(db, call.id, failure, { releaseSlot: true })) refunded += 1;
  }
  for (const { requestId: id } of openReservations) {
    if (ended.has(id)) continue;
    // A reservation whose row exists is the row's business (queued calls wait as long as the queue
    // allows; running ones are judged by their lease, above); only one a crash left without a row is
    // refunded here.
    if ((await findRequestRow(db, id)) !== undefined) continue;
    if (
      await failCall(db, id, { code: "feature-failed", reason: CALL_ABANDONED_REASON }, { releaseSlot: true })
    ) {
      refunded += 1;
    }
  }
  await releaseSlotsOfEndedCalls(db, now);
  await removeLapsedSlots(db, olderThan);
  return refunded;
}

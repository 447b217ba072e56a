import {
  CALL_INTERRUPTED_BY_RESTART,
  type FeatureCallResponse,
  microsToUsd,
  PREFERENCE_APPLIED_HEADER,
  type RequestDetail,
  requestDetailPath,
} from "@prism/contract";
import type { FastifyReply } from "fastify";
import { cachedBalance } from "../ledger/ledger.service";
import type { GatewayDeps } from "./call-deps";
import type { RunOutcome } from "./call-dispatcher";
import { callErrorOf, cancelCallRefund } from "./call-failure";
import { queuePositionOf } from "./call-queue.store";
import { findRequestRow, toHistoryRecord } from "./feature-requests.store";
import { completeIdempotencyKey, releaseIdempotencyKey } from "./idempotency.store";
import { requestDetailOf } from "./request-detail";
import type { SubmittedCall } from "./submit-call";

/**
 * The answer to a submitted call, as its caller preferred (call-preference.ts): the result once the
 * call has ended (a synchronous call, or one that ended within `Prefer: wait=N`), or `202 Accepted`
 * with the call's status and where to follow it. A call that ran in another process is answered from
 * its row, with the same error a caller in the running process would get.
 */

/** How often a waiter looks at its call's row when no notification came (a missed one costs this). */
const WAIT_POLL_MS = 1_000;

type Ended = { ended: true; outcome: RunOutcome<FeatureCallResponse> } | { ended: false };

export async function answerCall(
  deps: GatewayDeps,
  submitted: SubmittedCall,
  reply: FastifyReply,
  origin: string | undefined,
): Promise<FeatureCallResponse | RequestDetail> {
  const { call, requestId } = submitted;
  const preference = call.preference;
  try {
    const waitMs = preference.mode === "sync" ? undefined : preference.waitSeconds * 1000;
    const ended = waitMs === 0 ? ({ ended: false } as const) : await waitForEnd(deps, submitted, waitMs);
    if (ended.ended) {
      if (!ended.outcome.ok) throw ended.outcome.error;
      if (preference.mode === "async")
        reply.header(PREFERENCE_APPLIED_HEADER, `wait=${preference.waitSeconds}`);
      if (call.idempotency) await completeIdempotencyKey(deps.db, call.idempotency, 200, ended.outcome.value);
      return ended.outcome.value;
    }
    const detail = await currentDetail(deps, requestId, origin);
    reply
      .code(202)
      .header(PREFERENCE_APPLIED_HEADER, "respond-async")
      .header("location", requestDetailPath(requestId));
    if (call.idempotency) await completeIdempotencyKey(deps.db, call.idempotency, 202, detail);
    return detail;
  } catch (error) {
    if (call.idempotency) await releaseIdempotencyKey(deps.db, call.idempotency);
    throw error;
  }
}

/** The call as GET /v1/requests/{id} shows it now. */
export async function currentDetail(
  deps: Pick<GatewayDeps, "db">,
  requestId: string,
  origin: string | undefined,
): Promise<RequestDetail> {
  const row = await findRequestRow(deps.db, requestId);
  if (!row) throw new Error(`request ${requestId} vanished`);
  const position = row.status === "queued" ? ((await queuePositionOf(deps.db, requestId)) ?? null) : null;
  return requestDetailOf(row, { position, origin });
}

/**
 * Waits until the call ended (at most `timeoutMs` when given). A call this process started at once is
 * awaited directly; any other is followed through its row, woken by the end notification of whichever
 * process runs it, or by a poll. When this process starts draining for a restart while its caller
 * still waits on a queued call, that call is canceled (refunded) and the caller told to retry.
 */
async function waitForEnd(deps: GatewayDeps, submitted: SubmittedCall, timeoutMs?: number): Promise<Ended> {
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const shutdown = submitted.call.tracked?.signal;
  if (submitted.run) {
    if (timeoutMs === undefined) return { ended: true, outcome: await submitted.run };
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      submitted.run,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return outcome ? { ended: true, outcome } : { ended: false };
  }
  for (;;) {
    const row = await findRequestRow(deps.db, submitted.requestId);
    if (!row) throw new Error(`request ${submitted.requestId} vanished`);
    if (row.status === "done") {
      const balanceMicros = await cachedBalance(deps.db, row.organizationId);
      const request = toHistoryRecord(row);
      return {
        ended: true,
        outcome: { ok: true, value: { balance: microsToUsd(balanceMicros), cost: request.cost, request } },
      };
    }
    if (row.status === "error" || row.status === "canceled") {
      const error = callErrorOf({
        code: (row.errorCode ?? "feature-failed") as Parameters<typeof callErrorOf>[0]["code"],
        reason: row.errorMessage ?? "",
      });
      return { ended: true, outcome: { ok: false, error } };
    }
    if (shutdown?.aborted && row.status === "queued") {
      await cancelCallRefund(deps.db, submitted.requestId);
      throw callErrorOf({ code: "service-unavailable", reason: CALL_INTERRUPTED_BY_RESTART });
    }
    const left = deadline - Date.now();
    if (left <= 0) return { ended: false };
    await deps.dispatcher.nextEndSignal(
      submitted.requestId,
      Math.min(WAIT_POLL_MS, left),
      // Once draining, a call already running elsewhere is still waited for, polled.
      shutdown?.aborted ? undefined : shutdown,
    );
  }
}

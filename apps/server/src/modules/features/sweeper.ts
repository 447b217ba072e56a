import type { FastifyBaseLogger } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { deleteExpiredEventHistory } from "../events/events.service";
import { deleteExpiredRateLimitBuckets } from "../rate-limit/rate-limit.service";
import { sweepAbandonedRequests } from "./call-failure";
import { deleteExpiredIdempotencyKeys } from "./idempotency.store";

/**
 * How long past its provider timeout an open call is taken for abandoned by a crash. A live call is
 * over by then (its provider was stopped at the timeout; storing and settling take moments), and one
 * that is not gets refunded rather than charged: its settle then finds the refund and fails the call.
 */
export function abandonedAfterMs(deps: Pick<AppDependencies, "config">): number {
  return deps.config.inference.sweepIntervalMs;
}

/**
 * How far back the start-up sweep looks for open reservations (a process may have been down a
 * while); later sweeps look back a few intervals only, so the ledger scan stays small.
 */
const START_UP_LOOK_BACK_MS = 7 * 24 * 3_600_000;

/**
 * Refunds and fails the calls a crashed process left open (request rows still `generating`, and
 * reservations with neither a settlement nor a refund): once at start-up, then every
 * REQUEST_SWEEP_INTERVAL_MS. Idempotency keys, events, finished webhook deliveries and throttling
 * buckets past their retention go at the same time. Safe with several processes: refunds are
 * idempotent, the status update is conditional, and deleting what another process already deleted
 * deletes nothing.
 */
export function startRequestSweeper(
  deps: Pick<AppDependencies, "config" | "database" | "metrics">,
  log: FastifyBaseLogger,
): NodeJS.Timeout {
  const { providerTimeoutMs, sweepIntervalMs, queueTimeoutMs } = deps.config.inference;
  // Later sweeps only need to look at what became old since the previous ones (with room to spare).
  const periodicLookBackMs = Math.max(10 * sweepIntervalMs, 3_600_000);
  let sweeping = false;
  const sweep = async (lookBackMs: number) => {
    // A sweep slower than the interval is not joined by another.
    if (sweeping) return;
    sweeping = true;
    const now = new Date();
    const cutoff = new Date(now.getTime() - providerTimeoutMs - abandonedAfterMs(deps));
    try {
      const swept = await sweepAbandonedRequests(deps.database.db, cutoff, lookBackMs, {
        now,
        queuedBefore: new Date(now.getTime() - queueTimeoutMs),
      });
      if (swept > 0) {
        deps.metrics.sweeperRefunds.inc(swept);
        log.warn({ swept }, "refunded requests abandoned by a crash");
      }
      await deleteExpiredIdempotencyKeys(deps.database.db);
      await deleteExpiredEventHistory(deps.database.db);
      await deleteExpiredRateLimitBuckets(deps.database.db, now);
    } catch (error) {
      log.error({ err: error }, "request sweep failed");
    } finally {
      sweeping = false;
    }
  };
  void sweep(START_UP_LOOK_BACK_MS);
  const timer = setInterval(() => void sweep(periodicLookBackMs), sweepIntervalMs);
  timer.unref();
  return timer;
}

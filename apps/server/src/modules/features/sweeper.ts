import type { FastifyBaseLogger } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { sweepAbandonedRequests } from "./feature-calls.service";

const SWEEP_INTERVAL_MS = 60_000;
/** A call still `generating` this long after its provider's timeout was abandoned by a crash. */
const GRACE_MS = 60_000;

/**
 * Refunds and fails requests a crashed process left `generating`: once at start-up, then every minute.
 * Safe with several processes: refunds are idempotent and the status update is conditional.
 */
export function startRequestSweeper(deps: AppDependencies, log: FastifyBaseLogger): NodeJS.Timeout {
  const sweep = async () => {
    const cutoff = new Date(Date.now() - deps.config.inference.providerTimeoutMs - GRACE_MS);
    try {
      const swept = await sweepAbandonedRequests(deps.database.db, cutoff);
      if (swept > 0) log.warn({ swept }, "refunded requests abandoned by a crash");
    } catch (error) {
      log.error({ err: error }, "request sweep failed");
    }
  };
  void sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}

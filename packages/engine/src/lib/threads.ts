import { availableParallelism } from "node:os";
import { workerData } from "node:worker_threads";

/**
 * Native inference threads per worker: the machine's cores shared among the pool's workers, so a full
 * pool does not oversubscribe the CPU while a lone job on a big machine still uses several cores.
 */
export function intraOpThreads(): number {
  const poolSize = (workerData as { poolSize?: number } | undefined)?.poolSize ?? 1;
  return Math.max(1, Math.floor(availableParallelism() / poolSize));
}

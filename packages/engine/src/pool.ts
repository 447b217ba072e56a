import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { EngineError } from "./errors";

export interface PoolOptions {
  /** A module whose default export handles one task. */
  filename: string;
  workers?: number;
  /** Longest a job may run; past it the worker running it is terminated and replaced. */
  jobTimeoutMs?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Overrides the pool's job timeout for this job. */
  timeoutMs?: number;
  transferList?: ArrayBuffer[];
}

export interface WorkerPool {
  readonly size: number;
  run<T>(task: unknown, options?: RunOptions): Promise<T>;
  close(): Promise<void>;
}

export const DEFAULT_JOB_TIMEOUT_MS = 120_000;

export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism());
}

/**
 * A fixed-size pool of worker threads, one job per worker at a time (the features are CPU-bound, so
 * more would only interleave them). Aborting a running piscina task terminates its worker and piscina
 * starts a fresh one, which is how a timeout or a caller's cancellation frees a stuck thread; a worker
 * that dies mid-job fails that job only.
 */
export function createWorkerPool(options: PoolOptions): WorkerPool {
  const size = options.workers ?? defaultWorkerCount();
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  // The threads start with the first job, not with the pool: each loads the engine's modules, which
  // would otherwise take CPU from the server while it starts (issue 16), and a deployment that never
  // runs a builtin feature never pays for them.
  let piscina: Piscina | undefined;
  let closed = false;
  const start = (): Piscina => {
    if (closed) throw new EngineError("unavailable", "The engine has been shut down.");
    piscina ??= new Piscina({
      filename: options.filename,
      minThreads: size,
      maxThreads: size,
      concurrentTasksPerWorker: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: { poolSize: size },
    });
    return piscina;
  };

  async function run<T>(task: unknown, runOptions: RunOptions = {}): Promise<T> {
    if (runOptions.signal?.aborted) {
      throw new EngineError("aborted", "The job was cancelled before it started.");
    }
    const limitMs = runOptions.timeoutMs ?? jobTimeoutMs;
    const timeout = AbortSignal.timeout(limitMs);
    const signal = runOptions.signal ? AbortSignal.any([runOptions.signal, timeout]) : timeout;
    const threads = start();
    try {
      return (await threads.run(task, { signal, transferList: runOptions.transferList })) as T;
    } catch (error) {
      if (timeout.aborted) {
        throw new EngineError("timeout", `The job took longer than ${limitMs} ms and was stopped.`, {
          cause: error,
        });
      }
      if (runOptions.signal?.aborted) {
        throw new EngineError("aborted", "The job was cancelled.", { cause: error });
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new EngineError("internal", `The worker failed: ${message}`, { cause: error });
    }
  }

  return {
    size,
    run,
    close: async () => {
      closed = true;
      await piscina?.destroy();
    },
  };
}

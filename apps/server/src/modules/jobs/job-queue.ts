import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client";
import {
  isJobKind,
  type JobContext,
  type JobHandlers,
  type JobKind,
  type JobPayload,
  type JobPayloads,
} from "./job-kinds";
import {
  claimDueJob,
  finishJob,
  handBackJob,
  type JobClaim,
  releaseFailedJob,
  renewJobLease,
  requeueJobUncounted,
} from "./job-queue.store";

const DEFAULT_LEASE_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;

export interface JobWorkerOptions {
  /** How often the worker looks for due jobs when started (default 1 s). */
  pollMs?: number;
  /**
   * How long a claim lasts without renewal (default 10 minutes). A job whose worker died is picked up
   * again once its lease has run out.
   */
  leaseMs?: number;
  /** How often a running job's lease is renewed (default a third of the lease). */
  heartbeatMs?: number;
  /** Run once, with its payload, when a job of their kind has failed its last attempt. */
  onExhausted?: JobHandlers;
}

interface ClaimedJob extends JobClaim {
  kind: JobKind;
  payload: JobPayload;
  attempts: number;
}

/** Claims the next due job (or one whose worker died and whose lease ran out) under a new token. */
async function claimJob(db: Database, kinds: JobKind[], leaseMs: number): Promise<ClaimedJob | undefined> {
  const now = new Date();
  const token = randomUUID();
  const row = await claimDueJob(db, { kinds, now, leaseUntil: new Date(now.getTime() + leaseMs), token });
  return row ? { ...row, token } : undefined;
}

/**
 * Calls the handler of the job's kind with its payload. Kind and payload are typed apart (one column
 * each), but `enqueueJob` only ever writes a kind with that kind's payload.
 */
async function runHandler<K extends JobKind>(
  handlers: JobHandlers,
  kind: K,
  payload: JobPayloads[K],
  context: JobContext,
): Promise<void> {
  await handlers[kind]?.(payload, context);
}

/**
 * Runs jobs of the given kinds until stopped. While a handler runs its lease is renewed, so a slow
 * job (a model server that takes minutes) is never handed to a second worker; a worker that cannot
 * renew (it stalled past the lease and another claimed the job) is told through the handler's signal
 * and may no longer finish, fail or re-queue the job. A handler that throws is retried with backoff,
 * up to five attempts; `JobRetryLater` re-queues without counting a failure (polling).
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private current: Promise<void> = Promise.resolve();
  /** The job a handler is working on now, so a stop can take it back from the handler. */
  private active: { job: ClaimedJob; controller: AbortController } | undefined;
  /** A graceful stop handed the running job back: nothing is left to wait for. */
  private handedBack = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly onExhausted: JobHandlers;

  constructor(
    private readonly db: Database,
    private readonly handlers: JobHandlers,
    private readonly log: FastifyBaseLogger,
    options: JobWorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(this.leaseMs / 3));
    this.onExhausted = options.onExhausted ?? {};
  }

  /** The kinds this worker claims: those it has a handler for. */
  private kinds(): JobKind[] {
    return Object.keys(this.handlers).filter(isJobKind);
  }

  start(): void {
    this.timer = setInterval(() => void this.drain(), this.pollMs);
    this.timer.unref();
  }

  /** Runs every due job now (tests and the interval both use it). */
  drain(): Promise<void> {
    if (this.running || this.stopped) return this.current;
    this.running = true;
    this.current = (async () => {
      try {
        // A stop ends the loop between jobs: a stopping worker claims nothing more.
        while (!this.stopped) {
          const job = await claimJob(this.db, this.kinds(), this.leaseMs);
          if (!job) break;
          await this.runOne(job);
        }
      } catch (error) {
        this.log.error({ err: error }, "job queue failed");
      } finally {
        this.running = false;
      }
    })();
    return this.current;
  }

  /** Keeps the job's lease ahead of the clock while its handler runs; aborts when the job was lost. */
  private keepLease(job: ClaimedJob, lost: AbortController): () => void {
    const renew = async () => {
      try {
        const renewed = await renewJobLease(this.db, job, new Date(Date.now() + this.leaseMs));
        if (!renewed && !lost.signal.aborted) {
          this.log.warn({ jobId: job.id, kind: job.kind }, "job lease lost to another worker");
          lost.abort(new Error("the job's lease was lost"));
        }
      } catch (error) {
        this.log.warn({ err: error, jobId: job.id }, "job lease renewal failed");
      }
    };
    const timer = setInterval(() => void renew(), this.heartbeatMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async runOne(job: ClaimedJob) {
    const lost = new AbortController();
    this.active = { job, controller: lost };
    const stopRenewing = this.keepLease(job, lost);
    let outcome: { ok: true } | { ok: false; error: unknown };
    try {
      await runHandler(this.handlers, job.kind, job.payload, { signal: lost.signal });
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      stopRenewing();
      this.active = undefined;
    }

    if (outcome.ok) {
      const finished = await finishJob(this.db, job);
      if (!finished) this.log.warn({ jobId: job.id, kind: job.kind }, "finished a job it no longer held");
      return;
    }
    const { error } = outcome;
    if (error instanceof JobRetryLater) {
      await requeueJobUncounted(this.db, job, new Date(Date.now() + error.delayMs));
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const exhausted = job.attempts >= MAX_ATTEMPTS;
    this.log.warn({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, "job failed");
    const released = await releaseFailedJob(this.db, job, {
      exhausted,
      lastError: message.slice(0, 1000),
      runAt: new Date(Date.now() + 2 ** job.attempts * 1_000),
    });
    // Only the worker that still held the job decides it is exhausted.
    if (exhausted && released) {
      await runHandler(this.onExhausted, job.kind, job.payload, { signal: lost.signal });
    }
  }

  /**
   * Stops claiming jobs and waits for the running one. With a deadline (a graceful stop), a job still
   * running when it passes is taken back: its handler is told through its signal, and its lease is
   * released at once (queued again, the attempt not counted) so another process picks it up now
   * instead of when the lease would have run out.
   */
  async stop(options: { deadlineMs?: number } = {}): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.handedBack) return;
    if (options.deadlineMs === undefined) {
      await this.current;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"deadline">((resolve) => {
      timer = setTimeout(() => resolve("deadline"), options.deadlineMs);
    });
    const outcome = await Promise.race([this.current.then(() => "done" as const), deadline]);
    clearTimeout(timer);
    const active = this.active;
    if (outcome === "done" || !active) return;
    this.handedBack = true;
    await handBackJob(this.db, active.job);
    active.controller.abort(new Error("the server is stopping"));
    this.log.warn({ jobId: active.job.id, kind: active.job.kind }, "job handed back at shutdown");
  }
}

/** Thrown by a handler to look again later (e.g. a training still running), without counting a failure. */
export class JobRetryLater extends Error {
  constructor(readonly delayMs: number) {
    super("retry later");
  }
}

import { and, eq, lte, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Executor } from "../../db/client";
import { jobs } from "../../db/schema";

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

const LEASE_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;

export async function enqueueJob(
  db: Executor,
  kind: string,
  payload: Record<string, unknown>,
  runAt = new Date(),
) {
  await db.insert(jobs).values({ kind, payload, runAt });
}

/** Claims the next due job (or one whose worker died and whose lease ran out). */
async function claimJob(db: Database, kinds: string[]) {
  const now = new Date();
  const rows = await db.execute(sql`
    update ${jobs} set status = 'running', attempts = ${jobs.attempts} + 1,
      lease_until = ${new Date(now.getTime() + LEASE_MS)}
    where ${jobs.id} = (
      select ${jobs.id} from ${jobs}
      where ${jobs.kind} in ${kinds}
        and ((${jobs.status} = 'queued' and ${jobs.runAt} <= ${now})
          or (${jobs.status} = 'running' and ${jobs.leaseUntil} < ${now}))
      order by ${jobs.runAt}
      for update skip locked
      limit 1
    )
    returning id, kind, payload, attempts`);
  const row = (
    rows as unknown as {
      rows: { id: string; kind: string; payload: Record<string, unknown>; attempts: number }[];
    }
  ).rows[0];
  return row;
}

/**
 * Runs jobs of the given kinds until stopped. A handler that throws is retried with backoff, up to
 * five attempts; `JobRetryLater` re-queues without counting a failure (polling).
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs = 1_000,
  ) {}

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
        for (;;) {
          const job = await claimJob(this.db, Object.keys(this.handlers));
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

  private async runOne(job: {
    id: string;
    kind: string;
    payload: Record<string, unknown>;
    attempts: number;
  }) {
    const handler = this.handlers[job.kind];
    try {
      await handler?.(job.payload);
      await this.db.update(jobs).set({ status: "done", leaseUntil: null }).where(eq(jobs.id, job.id));
    } catch (error) {
      if (error instanceof JobRetryLater) {
        await this.db
          .update(jobs)
          .set({
            status: "queued",
            runAt: new Date(Date.now() + error.delayMs),
            leaseUntil: null,
            attempts: sql`${jobs.attempts} - 1`,
          })
          .where(eq(jobs.id, job.id));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const exhausted = job.attempts >= MAX_ATTEMPTS;
      this.log.warn({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, "job failed");
      await this.db
        .update(jobs)
        .set({
          status: exhausted ? "failed" : "queued",
          lastError: message.slice(0, 1000),
          runAt: new Date(Date.now() + 2 ** job.attempts * 1_000),
          leaseUntil: null,
        })
        .where(eq(jobs.id, job.id));
      if (exhausted) await this.handlers[`${job.kind}:exhausted`]?.(job.payload);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.current;
  }
}

/** Thrown by a handler to look again later (e.g. a training still running), without counting a failure. */
export class JobRetryLater extends Error {
  constructor(readonly delayMs: number) {
    super("retry later");
  }
}

export async function pendingJobs(db: Database, kind: string) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, kind),
        or(eq(jobs.status, "queued"), eq(jobs.status, "running")),
        lte(jobs.createdAt, new Date()),
      ),
    );
}

import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { type Database, type Executor, rowsOf } from "../../db/client";
import { jobs } from "../../db/schema";
import type { JobKind, JobPayload, JobPayloads } from "./job-kinds";

/** Data access of the job queue: every change to a claimed job is conditional on its claim's token. */

/** A job as a worker holds it: its id and the token of the current claim. */
export interface JobClaim {
  id: string;
  /** This claim's token: every later change to the job is conditional on it. */
  token: string;
}

/**
 * Adds a job, in the caller's transaction when given one. With `key`, a job under that key is only
 * ever added once (a unique index): enqueueing it again, from any process, does nothing.
 */
export async function enqueueJob<K extends JobKind>(
  db: Executor,
  kind: K,
  payload: JobPayloads[K],
  runAt = new Date(),
  options: { key?: string } = {},
) {
  await db
    .insert(jobs)
    .values({ kind, payload, runAt, dedupeKey: options.key ?? null })
    .onConflictDoNothing();
}

/**
 * Claims the next due job of `kinds` (or one whose worker died and whose lease ran out) under `token`,
 * in one statement: `for update skip locked` hands each job to one claimer however many compete.
 */
export async function claimDueJob(
  db: Database,
  input: { kinds: JobKind[]; now: Date; leaseUntil: Date; token: string },
): Promise<{ id: string; kind: JobKind; payload: JobPayload; attempts: number } | undefined> {
  const { kinds, now, leaseUntil, token } = input;
  const next = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, kinds),
        or(
          and(eq(jobs.status, "queued"), lte(jobs.runAt, now)),
          and(eq(jobs.status, "running"), lt(jobs.leaseUntil, now)),
        ),
      ),
    )
    .orderBy(jobs.runAt)
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(jobs)
    .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, leaseUntil, leaseToken: token })
    .where(inArray(jobs.id, next))
    .returning({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts });
  return row;
}

/** The condition under which a worker may still change a job: it holds the current claim. */
function heldBy(job: JobClaim) {
  return and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.leaseToken, job.token));
}

/** Extends a held job's lease; false when the claim was lost. */
export async function renewJobLease(db: Database, job: JobClaim, leaseUntil: Date): Promise<boolean> {
  const renewed = await db.update(jobs).set({ leaseUntil }).where(heldBy(job)).returning({ id: jobs.id });
  return renewed.length > 0;
}

/** Marks a held job done; false when the claim was lost. */
export async function finishJob(db: Database, job: JobClaim): Promise<boolean> {
  const finished = await db
    .update(jobs)
    .set({ status: "done", leaseUntil: null, leaseToken: null })
    .where(heldBy(job))
    .returning({ id: jobs.id });
  return finished.length > 0;
}

/** Queues a held job again for `runAt` without counting the attempt it just made (a poll). */
export async function requeueJobUncounted(db: Database, job: JobClaim, runAt: Date): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: "queued",
      runAt,
      leaseUntil: null,
      leaseToken: null,
      attempts: sql`${jobs.attempts} - 1`,
    })
    .where(heldBy(job));
}

/** Records a held job's failure: queued again for `runAt`, or failed for good; false when the claim was lost. */
export async function releaseFailedJob(
  db: Database,
  job: JobClaim,
  input: { exhausted: boolean; lastError: string; runAt: Date },
): Promise<boolean> {
  const released = await db
    .update(jobs)
    .set({
      status: input.exhausted ? "failed" : "queued",
      lastError: input.lastError,
      runAt: input.runAt,
      leaseUntil: null,
      leaseToken: null,
    })
    .where(heldBy(job))
    .returning({ id: jobs.id });
  return released.length > 0;
}

/** Hands a held job back to the queue at once, the interrupted attempt not counted (a graceful stop). */
export async function handBackJob(db: Database, job: JobClaim): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: "queued",
      runAt: new Date(),
      leaseUntil: null,
      leaseToken: null,
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
    })
    .where(heldBy(job));
}

/** Per kind, the jobs due, scheduled and running, and how long the oldest due one has waited (seconds). */
export async function summarizeJobQueue(
  db: Database,
): Promise<{ kind: string; due: number; scheduled: number; running: number; oldest: number }[]> {
  const result = await db.execute(sql`
    select ${jobs.kind} as kind,
      count(*) filter (where ${jobs.status} = 'queued' and ${jobs.runAt} <= now())::int as due,
      count(*) filter (where ${jobs.status} = 'queued' and ${jobs.runAt} > now())::int as scheduled,
      count(*) filter (where ${jobs.status} = 'running')::int as running,
      coalesce(extract(epoch from now() - min(${jobs.runAt})
        filter (where ${jobs.status} = 'queued' and ${jobs.runAt} <= now())), 0)::float8 as oldest
    from ${jobs}
    where ${jobs.status} in ('queued', 'running')
    group by ${jobs.kind}`);
  return rowsOf<{ kind: string; due: number; scheduled: number; running: number; oldest: number }>(result);
}

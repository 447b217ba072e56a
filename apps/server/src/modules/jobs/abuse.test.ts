import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../../test/test-database";
import type { DatabaseHandle } from "../../db/client";
import { jobs } from "../../db/schema";
import { type JobKind, TRAINING_POLL_JOB, WEBHOOK_DELIVERY_JOB } from "./job-kinds";
import { JobWorker } from "./job-queue";
import { enqueueJob } from "./job-queue.store";

/**
 * Two workers on one database, as two server processes run the queue: a job whose handler runs long
 * (an AI Clone training submitted to a slow model server) must never run twice, and a worker that has
 * lost a job to another may not mark it done.
 */

const log = pino({ level: "silent" });
const MINUTE_MS = 60_000;

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Real time for the timers (heartbeats) to fire while the clock has been moved on. */
const settle = (ms = 40) => new Promise((resolve) => setTimeout(resolve, ms));

describe("job leases", () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const jobRow = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const onlyJob = async (kind: JobKind) =>
    (await database.db.select().from(jobs).where(eq(jobs.kind, kind)))[0]?.id ?? "";

  it("keeps renewing a running job's lease, so a second worker never runs it while the first still does", async () => {
    // Only the wall clock is faked: an hour passes while the handler waits on its model server.
    vi.useFakeTimers({ toFake: ["Date"] });
    // The kind's real handler is not registered: each test's handler stands in for it.
    const kind = TRAINING_POLL_JOB;
    const release = gate();
    let runs = 0;
    const handlers = {
      [kind]: async () => {
        runs += 1;
        await release.opened;
      },
    };
    const first = new JobWorker(database.db, handlers, log, { heartbeatMs: 10 });
    const second = new JobWorker(database.db, handlers, log, { heartbeatMs: 10 });
    await enqueueJob(database.db, kind, { requestId: "slow-submit", identityId: "identity-slow" });
    const firstRun = first.drain();
    await until(() => runs === 1);
    for (let step = 0; step < 20; step += 1) {
      vi.setSystemTime(Date.now() + 3 * MINUTE_MS);
      await settle();
    }
    // Give a heartbeat the chance to land after the last jump (a loaded machine may be slow to run it).
    const id = await onlyJob(kind);
    const renewedAfter = Date.now();
    for (let wait = 0; wait < 50; wait += 1) {
      const leaseUntil = (await jobRow(id))?.leaseUntil?.getTime() ?? 0;
      if (leaseUntil > renewedAfter) break;
      await settle();
    }
    const secondRun = second.drain();
    await settle(300);
    expect(runs).toBe(1);
    release.open();
    await Promise.all([firstRun, secondRun]);
    expect(runs).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("does not let a worker whose lease ran out mark the job done under the worker that took it over", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const kind = WEBHOOK_DELIVERY_JOB;
    const gates = [gate(), gate()];
    let runs = 0;
    const handlers = {
      [kind]: async () => {
        runs += 1;
        await gates[runs - 1]?.opened;
      },
    };
    // The first worker stalls (no heartbeat gets through, as in a frozen process) past its lease.
    const stalled = new JobWorker(database.db, handlers, log, { leaseMs: MINUTE_MS, heartbeatMs: 3_600_000 });
    const successor = new JobWorker(database.db, handlers, log, { leaseMs: MINUTE_MS, heartbeatMs: 10 });
    await enqueueJob(database.db, kind, { deliveryId: "lost-lease" });
    const id = await onlyJob(kind);
    const stalledRun = stalled.drain();
    await until(() => runs === 1);
    vi.setSystemTime(Date.now() + 11 * MINUTE_MS);
    const successorRun = successor.drain();
    await until(() => runs === 2);

    // The stalled worker's handler returns: the job is the successor's, still running.
    gates[0]?.open();
    await stalledRun;
    expect(await jobRow(id)).toMatchObject({ status: "running" });

    gates[1]?.open();
    await successorRun;
    expect(await jobRow(id)).toMatchObject({ status: "done" });
  });
});

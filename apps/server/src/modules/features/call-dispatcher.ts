import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { DatabaseHandle } from "../../db/client";
import type { FeatureProvider } from "../../providers/inference/feature-provider";
import {
  CALL_CHANNEL,
  type ClaimedCallRow,
  claimNextCall,
  ensurePoolSlots,
  notifyCallEvent,
  QUEUE_CHANNEL,
  removeOwnedSlots,
  renewRunnerLeases,
  SHARED_OWNER,
} from "./call-queue.store";

/** One provider's slots as this process uses them: which pool, and whose slots it may take there. */
export interface CallPool {
  /** The pool's name: the provider's name (the queue column of the calls waiting for it). */
  name: string;
  /** SHARED_OWNER for a capacity shared by every process; this process's instance id for its own. */
  owner: string;
  capacity: number;
}

/**
 * How a call's run ended, as the synchronous caller waiting for it learns it; `queueWaiting` false when
 * the settlement saw nobody waiting for the slot it freed (the dispatcher then need not look).
 */
export type RunOutcome<T> = ({ ok: true; value: T } | { ok: false; error: unknown }) & {
  queueWaiting?: boolean;
};

/** Runs a call this process claimed from the queue (its inputs are read from the file store). */
export type ClaimedCallRunner = (row: ClaimedCallRow, signal: AbortSignal) => Promise<void>;

interface RunningCall {
  controller: AbortController;
  done: Promise<void>;
}

/** How often a process looks at the queue without being told (a missed notification costs this much). */
const POLL_MS = 2_000;

/**
 * This process's side of the call queue (decision 019): it keeps its slots in the database (its own
 * pools' with a lease it renews, the shared pools' as configured), starts calls in its free slots in
 * fair order whenever it hears a pool has work (a notification from any process, a call of its own
 * ending, or a poll), keeps the calls it runs abortable (cancel, shutdown), and tells a synchronous
 * caller in this process when its call ends, wherever it ran.
 */
export class CallDispatcher {
  readonly instanceId = randomUUID();
  private readonly pools = new Map<string, CallPool>();
  private readonly running = new Map<string, RunningCall>();
  private readonly endWaiters = new Map<string, Set<() => void>>();
  private readonly pumping = new Map<string, Promise<void>>();
  private readonly pumpAgain = new Set<string>();
  private claiming = false;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>)[] = [];

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      providers: readonly FeatureProvider[];
      runClaimed: ClaimedCallRunner;
      leaseMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    for (const provider of deps.providers) {
      this.pools.set(provider.name, {
        name: provider.name,
        owner: provider.capacity.scope === "process" ? this.instanceId : SHARED_OWNER,
        capacity: provider.capacity.slots,
      });
    }
  }

  /** The pool a provider's calls wait in, as this process takes slots in it. */
  poolOf(provider: Pick<FeatureProvider, "name">): CallPool {
    const pool = this.pools.get(provider.name);
    if (!pool) throw new Error(`no call pool for provider ${provider.name}`);
    return pool;
  }

  leaseUntil(): Date {
    return new Date(Date.now() + this.deps.leaseMs);
  }

  /** Makes this process's slots, listens for work and for its calls' events, and starts claiming. */
  async start(): Promise<void> {
    const db = this.deps.database.db;
    for (const pool of this.pools.values()) {
      await ensurePoolSlots(db, {
        pool: pool.name,
        owner: pool.owner,
        capacity: pool.capacity,
        leaseUntil: pool.owner === SHARED_OWNER ? null : this.leaseUntil(),
      });
    }
    this.unlisten.push(
      await this.deps.database.listen(QUEUE_CHANNEL, (pool) => this.pump(pool)),
      await this.deps.database.listen(CALL_CHANNEL, (payload) => this.onCallEvent(payload)),
    );
    this.claiming = true;
    const heartbeat = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.deps.leaseMs / 4)));
    const poll = setInterval(() => this.pumpAll(), POLL_MS);
    heartbeat.unref();
    poll.unref();
    this.timers.push(heartbeat, poll);
    this.pumpAll();
  }

  private async renew(): Promise<void> {
    try {
      await renewRunnerLeases(this.deps.database.db, {
        runner: this.instanceId,
        leaseUntil: this.leaseUntil(),
      });
    } catch (error) {
      this.deps.log.warn({ err: error }, "could not renew the call leases");
    }
  }

  private pumpAll(): void {
    for (const pool of this.pools.keys()) this.pump(pool);
  }

  /**
   * Starts waiting calls of `pool` in this process's free slots until none is free or none waits. One
   * pump per pool at a time; a request to pump while one runs makes it go round once more.
   */
  pump(poolName: string): void {
    const pool = this.pools.get(poolName);
    if (!pool || !this.claiming) return;
    if (this.pumping.has(poolName)) {
      this.pumpAgain.add(poolName);
      return;
    }
    const work = (async () => {
      do {
        this.pumpAgain.delete(poolName);
        for (;;) {
          if (!this.claiming) return;
          const row = await claimNextCall(this.deps.database.db, {
            pool: pool.name,
            owner: pool.owner,
            runner: this.instanceId,
            leaseUntil: this.leaseUntil(),
          });
          if (!row) break;
          this.track(row.id, (signal) => this.deps.runClaimed(row, signal), { notifyEnd: true });
        }
      } while (this.pumpAgain.has(poolName));
    })()
      .catch((error: unknown) =>
        this.deps.log.error({ err: error, pool: poolName }, "could not claim a call"),
      )
      .finally(() => this.pumping.delete(poolName));
    this.pumping.set(poolName, work);
  }

  /**
   * Runs a call this process started (claimed from the queue, or started at once by its reservation)
   * with an abort signal for cancel and shutdown; when it ends its pool is pumped (its slot is free)
   * and waiters are told. `notifyEnd`: a waiter may be in another process (the call was queued).
   */
  track<T>(
    requestId: string,
    run: (signal: AbortSignal) => Promise<T>,
    options: { notifyEnd: boolean; pool?: string },
  ): Promise<T> {
    const controller = new AbortController();
    const result = run(controller.signal);
    let queueWaiting: boolean | undefined;
    const done = result.then(
      (outcome) => {
        const told = (outcome as { queueWaiting?: unknown } | undefined)?.queueWaiting;
        if (typeof told === "boolean") queueWaiting = told;
      },
      () => undefined,
    );
    this.running.set(requestId, { controller, done });
    void done.then(async () => {
      this.running.delete(requestId);
      this.ended(requestId);
      if (options.notifyEnd) {
        await notifyCallEvent(this.deps.database.db, "ended", requestId).catch((error: unknown) =>
          this.deps.log.warn({ err: error, requestId }, "could not announce a call's end"),
        );
      }
      // The freed slot has work only when someone waits (the settlement says so; otherwise look).
      if (queueWaiting === false) return;
      if (options.pool) this.pump(options.pool);
      else this.pumpAll();
    });
    return result;
  }

  /** Stops a call this process runs (its provider sees the abort); false when it runs elsewhere or not at all. */
  abortLocal(requestId: string, reason: unknown): boolean {
    const call = this.running.get(requestId);
    if (!call) return false;
    call.controller.abort(reason);
    return true;
  }

  isRunningHere(requestId: string): boolean {
    return this.running.has(requestId);
  }

  /** Asks whichever process runs the call to stop it (this one directly, others by notification). */
  async requestAbort(requestId: string, reason: unknown): Promise<void> {
    if (this.abortLocal(requestId, reason)) return;
    await notifyCallEvent(this.deps.database.db, "cancel", requestId);
  }

  private onCallEvent(payload: string): void {
    const separator = payload.indexOf(":");
    const event = payload.slice(0, separator);
    const requestId = payload.slice(separator + 1);
    if (event === "ended") this.ended(requestId);
    else if (event === "cancel") this.abortLocal(requestId, new CallCanceled());
  }

  private ended(requestId: string): void {
    const waiters = this.endWaiters.get(requestId);
    if (!waiters) return;
    this.endWaiters.delete(requestId);
    for (const wake of waiters) wake();
  }

  /**
   * Resolves when this process hears that the call ended (or after `pollMs`, whichever is first): the
   * caller then reads the row. A notification can be missed (a reconnect), so callers loop with a poll.
   */
  nextEndSignal(requestId: string, pollMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.endWaiters.get(requestId) ?? new Set<() => void>();
      this.endWaiters.set(requestId, waiters);
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", wake);
        waiters.delete(wake);
        if (waiters.size === 0 && this.endWaiters.get(requestId) === waiters)
          this.endWaiters.delete(requestId);
        resolve();
      };
      const timer = setTimeout(wake, pollMs);
      signal?.addEventListener("abort", wake, { once: true });
      waiters.add(wake);
    });
  }

  get runningCount(): number {
    return this.running.size;
  }

  /**
   * The graceful stop: no more claims; the calls running here get `deadlineMs` to finish, then are
   * aborted (each refunds itself) and get `unwindMs` to do so. Returns the ids of calls still running
   * after that, for the caller to refund directly. The process's own slots are removed at the end.
   */
  async drain(deadlineMs: number, unwindMs: number): Promise<string[]> {
    this.claiming = false;
    await Promise.allSettled(this.pumping.values());
    const settleWithin = async (ms: number) => {
      const all = Promise.allSettled([...this.running.values()].map((call) => call.done));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    };
    await settleWithin(deadlineMs);
    for (const call of this.running.values()) call.controller.abort(new ShutdownAbort());
    await settleWithin(unwindMs);
    return [...this.running.keys()];
  }

  /** Stops listening and renewing, and gives up this process's own slots. */
  async close(): Promise<void> {
    this.claiming = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await Promise.allSettled(this.unlisten.map((stop) => stop()));
    this.unlisten = [];
    await removeOwnedSlots(this.deps.database.db, this.instanceId).catch((error: unknown) =>
      this.deps.log.warn({ err: error }, "could not remove this process's call slots"),
    );
  }
}

/** The abort reason of a call its caller canceled. */
export class CallCanceled extends Error {
  constructor() {
    super("The call was canceled.");
    this.name = "CallCanceled";
  }
}

/** The abort reason of a call stopped because its process is shutting down. */
export class ShutdownAbort extends Error {
  constructor() {
    super("The server is restarting.");
    this.name = "ShutdownAbort";
  }
}

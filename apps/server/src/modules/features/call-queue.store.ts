import { type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "../../db/client";
import { featureRequests, providerSlots } from "../../db/schema";

/**
 * The call queue's statements (decision 019). A call waits as its own request row (`queued`, in the
 * pool of the provider that will run it) and runs in a slot of that pool: a row of `provider_slots`.
 * Slots are taken with `for update skip locked` and a re-checked `request_id is null`, so whatever the
 * number of processes no slot holds two calls and no call starts twice.
 *
 * Fair sharing is start-time fair queuing over organizations: a call's tag is one past its
 * organization's newest tag still queued in the pool, and never below the pool's head (its smallest
 * queued tag), and calls start in tag order (then age). An organization with a thousand calls queued
 * holds tags far ahead of the head; another's first call gets the head's tag and starts within one
 * slot's turn.
 */

/** The pool everybody shares (owner of its slots): a remote provider's capacity. */
export const SHARED_OWNER = "*";

/** The channel a process listens on to learn that a pool has a call ready to claim (payload: pool). */
export const QUEUE_CHANNEL = "prism_call_queue";
/** The channel telling a call's waiter or runner in another process about it (payload: `event:id`). */
export const CALL_CHANNEL = "prism_call_events";

/** The tag a call queued now in `pool` by `organizationId` gets (see the fair sharing above). */
function fairTag(pool: string, organizationId: SQL | string): SQL {
  const organization = typeof organizationId === "string" ? sql`${organizationId}::uuid` : organizationId;
  return sql`greatest(
    coalesce((select min(head.queue_tag) from ${featureRequests} head
      where head.queue = ${pool} and head.status = 'queued' and head.queue_tag is not null), 0),
    coalesce((select max(own.queue_tag) + 1 from ${featureRequests} own
      where own.queue = ${pool} and own.status = 'queued' and own.organization_id = ${organization}), 0))`;
}

export interface PoolSlots {
  pool: string;
  /** SHARED_OWNER, or this process's instance id for its own pool. */
  owner: string;
  capacity: number;
  /** A process's own slots lapse unless renewed (null for shared slots). */
  leaseUntil: Date | null;
}

/**
 * Makes the pool have exactly `capacity` slots of this owner: the missing ones are added, free ones
 * beyond it removed (a busy one beyond it goes when a later call finds it free).
 */
export async function ensurePoolSlots(db: Executor, input: PoolSlots): Promise<void> {
  await db.execute(sql`insert into ${providerSlots} (pool, owner, slot, lease_until)
    select ${input.pool}, ${input.owner}, n, ${input.leaseUntil?.toISOString() ?? null}::timestamptz
    from generate_series(0, ${input.capacity - 1}::int) as n
    on conflict (pool, owner, slot) do update set lease_until = excluded.lease_until`);
  await db.execute(sql`delete from ${providerSlots}
    where pool = ${input.pool} and owner = ${input.owner} and slot >= ${input.capacity} and request_id is null`);
}

/** A process stopping cleanly gives up its own slots (the calls in them have ended by then). */
export async function removeOwnedSlots(db: Executor, owner: string): Promise<void> {
  await db.execute(sql`delete from ${providerSlots} where owner = ${owner}`);
}

/**
 * Renews this process's hold on its own slots and on the calls it runs: a process that stops renewing
 * (it died) loses both once the lease runs out, and the sweeper refunds its calls.
 */
export async function renewRunnerLeases(db: Executor, input: { runner: string; leaseUntil: Date }) {
  const until = input.leaseUntil.toISOString();
  await db.execute(sql`with calls as (
      update ${featureRequests} set lease_until = ${until}::timestamptz
      where runner = ${input.runner} and status = 'generating'
      returning 1)
    update ${providerSlots} set lease_until = ${until}::timestamptz where owner = ${input.runner}`);
}

/** What the reservation needs to start a call at once when its pool has a free slot and nobody waits. */
export interface StartIfFree {
  pool: string;
  /** The owners whose free slots this process may take: SHARED_OWNER or its own instance id. */
  owner: string;
  runner: string;
  leaseUntil: Date;
}

/**
 * The reservation statement's part that takes a free slot for the new call (`request_id`), only when
 * the debit went through and nobody is queued in the pool (a waiting call goes first). Its CTE returns
 * a row exactly when the call may start at once.
 */
export function takeFreeSlotFor(requestId: string, start: StartIfFree, debited: SQL): SQL {
  return sql`update ${providerSlots} taken set request_id = ${requestId}::uuid
    from (select pool, owner, slot from ${providerSlots}
      where pool = ${start.pool} and owner = ${start.owner} and request_id is null
        and exists (${debited})
        and not exists (select 1 from ${featureRequests} waiting
          where waiting.queue = ${start.pool} and waiting.status = 'queued' and waiting.queue_tag is not null)
      limit 1 for update skip locked) free
    where taken.pool = free.pool and taken.owner = free.owner and taken.slot = free.slot
      and taken.request_id is null
    returning taken.slot`;
}

/**
 * Makes a queued call claimable once its inputs are stored: its fair tag is set and every process
 * listening is told the pool has work. Undefined when the call is no longer queued (canceled).
 */
export async function markQueuedCallReady(
  db: Executor,
  input: { requestId: string; pool: string; organizationId: string },
): Promise<number | undefined> {
  const [row] = rowsOf<{ queue_tag: string | number }>(
    await db.execute(sql`with ready as (
        update ${featureRequests} set queue_tag = ${fairTag(input.pool, input.organizationId)}
        where id = ${input.requestId} and status = 'queued' and queue_tag is null
        returning queue_tag)
      select queue_tag, pg_notify(${QUEUE_CHANNEL}, ${input.pool}) from ready`),
  );
  return row ? Number(row.queue_tag) : undefined;
}

/** A claimed call as the statement answers it (column names). */
export type ClaimedCallRow = Record<string, unknown> & { id: string };

/**
 * Takes a free slot of `pool` that this process may use and the next call in fair order, and starts
 * that call (`generating`, this process as its runner) — all in one statement, so a slot and a call are
 * taken together or not at all. Undefined when no slot is free or nothing is waiting.
 */
export async function claimNextCall(
  db: Executor,
  input: { pool: string; owner: string; runner: string; leaseUntil: Date },
): Promise<ClaimedCallRow | undefined> {
  const [row] = rowsOf<ClaimedCallRow>(
    await db.execute(sql`with free as (
        select pool, owner, slot from ${providerSlots}
        where pool = ${input.pool} and owner = ${input.owner} and request_id is null
        limit 1 for update skip locked),
      next as (
        select id from ${featureRequests}
        where queue = ${input.pool} and status = 'queued' and queue_tag is not null
          and exists (select 1 from free)
        order by queue_tag, created_at, id
        limit 1 for update skip locked),
      taken as (
        update ${providerSlots} slots set request_id = (select id from next)
        from free
        where slots.pool = free.pool and slots.owner = free.owner and slots.slot = free.slot
          and slots.request_id is null and exists (select 1 from next)
        returning slots.slot)
      update ${featureRequests} set status = 'generating', started_at = now(), runner = ${input.runner},
        lease_until = ${input.leaseUntil.toISOString()}::timestamptz
      where id = (select id from next) and status = 'queued' and exists (select 1 from taken)
      returning *`),
  );
  return row;
}

/** Gives a call's slot back (its run ended, however); nothing when it held none. */
export async function releaseSlotOf(db: Executor, requestId: string): Promise<void> {
  await db.execute(sql`update ${providerSlots} set request_id = null where request_id = ${requestId}::uuid`);
}

/** The part of a statement that gives a call's slot back (settlement and refund embed it). */
export function slotRelease(requestId: string): SQL {
  return sql`update ${providerSlots} set request_id = null where request_id = ${requestId}::uuid returning slot`;
}

/** How many calls start before this queued one in its pool (0: it is next); undefined when not queued. */
export async function queuePositionOf(db: Executor, requestId: string): Promise<number | undefined> {
  const [row] = rowsOf<{ ahead: string | number | null }>(
    await db.execute(sql`select (select count(*) from ${featureRequests} other
        where other.queue = me.queue and other.status = 'queued' and other.queue_tag is not null
          and (other.queue_tag, other.created_at, other.id) < (me.queue_tag, me.created_at, me.id)) as ahead
      from ${featureRequests} me
      where me.id = ${requestId}::uuid and me.status = 'queued'`),
  );
  if (!row) return undefined;
  return Number(row.ahead ?? 0);
}

/** Tells the other processes something about a call (`cancel`, `ended`), delivered on commit. */
export async function notifyCallEvent(db: Executor, event: "cancel" | "ended", requestId: string) {
  await db.execute(sql`select pg_notify(${CALL_CHANNEL}, ${`${event}:${requestId}`})`);
}

/**
 * Calls the sweeper takes for abandoned: running ones whose runner's lease ran out (the process died
 * or lost the database for longer than the lease) or that started before `startedBefore` (their
 * provider's timeout has long passed: a live runner would have ended them); queued ones whose inputs
 * never got stored (the admitting process died in between); and queued ones that waited longer than
 * the queue allows.
 */
export async function findAbandonedCalls(
  db: Executor,
  input: { now: Date; startedBefore: Date; unreadyBefore: Date; queuedBefore: Date; limit: number },
): Promise<{ id: string; status: string }[]> {
  return rowsOf<{ id: string; status: string }>(
    await db.execute(sql`select id, status from ${featureRequests}
      where status in ('queued', 'generating') and created_at < ${input.now.toISOString()}::timestamptz
        and ((status = 'generating' and (lease_until < ${input.now.toISOString()}::timestamptz
              or coalesce(started_at, created_at) < ${input.startedBefore.toISOString()}::timestamptz))
          or (status = 'queued' and queue_tag is null
              and created_at < ${input.unreadyBefore.toISOString()}::timestamptz)
          or (status = 'queued' and created_at < ${input.queuedBefore.toISOString()}::timestamptz))
      limit ${input.limit}`),
  );
}

/** Slots of processes whose lease ran out long ago: nobody renews them, so nobody will use them. */
export async function removeLapsedSlots(db: Executor, lapsedBefore: Date): Promise<number> {
  const rows = rowsOf<{ slot: number }>(
    await db.execute(sql`delete from ${providerSlots}
      where owner <> ${SHARED_OWNER} and lease_until < ${lapsedBefore.toISOString()}::timestamptz
        and request_id is null
      returning slot`),
  );
  return rows.length;
}

/**
 * Frees slots still held by calls that ended without their runner giving the slot back (a call
 * canceled while its runner died): once the call's lease has run out nobody runs it any more.
 */
export async function releaseSlotsOfEndedCalls(db: Executor, now: Date): Promise<void> {
  await db.execute(sql`update ${providerSlots} slots set request_id = null
    from ${featureRequests} call
    where slots.request_id = call.id and call.status not in ('queued', 'generating')
      and (call.lease_until is null or call.lease_until < ${now.toISOString()}::timestamptz)`);
}

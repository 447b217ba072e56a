import { type Column, getTableColumns, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type Database, type Executor, rowsOf } from "../../db/client";
import {
  autoRechargeSettings,
  featureRequests,
  ledgerEntries,
  organizations,
  providerSlots,
  usageDaily,
  usageDailyKeys,
} from "../../db/schema";
import type { UpstreamUsage } from "../../providers/inference/feature-provider";

/**
 * The money of one feature call in as few round trips as its guarantees allow: the reservation is one
 * statement, the settlement is one statement, and a refund one transaction (the rare path).
 *
 * The request row's status is what decides how a call ends: the settlement turns it from `generating`
 * to `done` and the refund from `generating` to `error`, each with a conditional update that
 * PostgreSQL re-checks on the newest row after waiting for a concurrent one, so of a settle and a
 * refund racing (the sweeper taking a slow call for abandoned) exactly one wins, and the ledger entry
 * and the release of the call's slot are written only from the row that update returned.
 *
 * Calls in flight are a counter on the organization's row, raised by the reservation's conditional
 * update and lowered by whichever of settle and refund wins, so the concurrency limit is checked on the
 * row the reservation locks: a count of `generating` rows in the same statement would be read from a
 * snapshot taken before the lock was granted, and two calls could both take the last slot.
 *
 * Where a statement has already written something that must not stand (a key's spend cap refused
 * after the debit), it calls `prism_refuse(reason)` (migration 0016), which raises SQLSTATE P0001 and
 * so rolls the whole statement back.
 */

const REFUSED = "P0001";

/** The reasons the reservation's statement gives when it takes nothing. */
export type ReservationRefusal = "insufficient-balance" | "too-many-calls" | "budget-reached";

/** The reason a statement was aborted by `prism_refuse`, if that is what the error is. */
export function refusalOf(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (code === REFUSED) return current.message;
  }
  return undefined;
}

/**
 * `(columns) select values` of one row of `table`, each value bound with its column's encoder and cast
 * to the column's type, so the row can be inserted from a CTE (`insert ... select ... from entry`):
 * written exactly when the CTE returned a row.
 */
function rowFrom<T extends PgTable>(
  table: T,
  values: Partial<T["$inferInsert"]>,
  expressions: Partial<Record<keyof T["$inferInsert"], SQL>> = {},
): { columns: SQL; values: SQL } {
  const columns = getTableColumns(table) as Record<string, Column>;
  const names: SQL[] = [];
  const bound: SQL[] = [];
  for (const [key, value] of Object.entries(values)) {
    const column = columns[key];
    if (!column || value === undefined || key in expressions) continue;
    names.push(sql`${sql.identifier(column.name)}`);
    bound.push(
      value === null
        ? sql`null::${sql.raw(column.getSQLType())}`
        : sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`,
    );
  }
  for (const [key, expression] of Object.entries(expressions) as [string, SQL | undefined][]) {
    const column = columns[key];
    if (!column || !expression) continue;
    names.push(sql`${sql.identifier(column.name)}`);
    bound.push(sql`(${expression})::${sql.raw(column.getSQLType())}`);
  }
  return { columns: sql.join(names, sql`, `), values: sql.join(bound, sql`, `) };
}

export interface CallReservationInput {
  organizationId: string;
  priceMicros: bigint;
  /** The call's id: its request row's, and what its ledger entries name it by. */
  requestId: string;
  /** The request row, written with the reservation: `queued`, or `generating` when `start` took a slot. */
  request: Omit<typeof featureRequests.$inferInsert, "id" | "status" | "startedAt" | "runner" | "leaseUntil">;
  /**
   * Starts the call at once when its pool can take it: `takeSlot` is the body of a CTE that claims a
   * free slot for the call given the debit's `select 1 from debit` (call-queue.store's
   * takeFreeSlotFor), and the row is written running by `runner` when it returns a row.
   */
  start?: { takeSlot: (debited: SQL) => SQL; runner: string; leaseUntil: Date };
  /** The organization's calls in flight allowed (0: no limit). */
  concurrentLimit: number;
  /**
   * Whether the organization's monthly budget stops calls now (an expression over its id). It counts
   * the calls in flight and must read them afresh when the debit re-checks its conditions after
   * waiting for a concurrent reservation's lock, which `prism_budget_reached` (a volatile function)
   * does and a plain subquery of this statement would not: see alerts.store's `budgetReached`.
   */
  budgetReached: SQL;
  /** The key's conditional spend charge (an `update ... returning`), when the key has caps. */
  keyCharge?: SQLWrapper;
  /** Expressions read in the same statement and answered back (alerts set, webhooks subscribed). */
  watch: Record<string, SQL>;
}

export type CallReservation =
  | { reserved: true; started: boolean; balanceMicros: bigint; watch: Record<string, boolean> }
  | { reserved: false; refusal: ReservationRefusal };

/**
 * Reserves a call's price and writes its request row in one statement: the conditional debit (balance
 * covers the price, a free slot, the budget not stopped) takes the organization's row lock and raises
 * its calls in flight; the ledger entry, the request row and the key's spend charge are written only
 * from the row the debit returned. When the debit takes nothing, nothing was written and the answer
 * says why; a key cap refused after the debit aborts the statement (`key-spend-cap-reached`).
 */
export async function reserveCall(db: Database, input: CallReservationInput): Promise<CallReservation> {
  const { organizationId, priceMicros, requestId, concurrentLimit } = input;
  const slotFree = concurrentLimit > 0 ? sql`and ${organizations.callsInFlight} < ${concurrentLimit}` : sql``;
  const started = sql`exists (select 1 from started)`;
  const requestRow = { ...input.request, id: requestId } as typeof featureRequests.$inferInsert;
  const request = rowFrom(featureRequests, requestRow, {
    status: input.start ? sql`case when ${started} then 'generating' else 'queued' end` : sql`'queued'`,
    ...(input.start
      ? {
          startedAt: sql`case when ${started} then now() end`,
          runner: sql`case when ${started} then ${input.start.runner} end`,
          leaseUntil: sql`case when ${started} then ${input.start.leaseUntil.toISOString()}::timestamptz end`,
        }
      : {}),
  });
  const watched = Object.entries(input.watch).map(
    ([name, expression]) => sql`, ${expression} as ${sql.identifier(name)}`,
  );
  const statement = sql`with debit as (
      update ${organizations}
      set balance_micros = ${organizations.balanceMicros} - ${priceMicros},
        calls_in_flight = ${organizations.callsInFlight} + 1
      where ${organizations.id} = ${organizationId} and ${organizations.balanceMicros} >= ${priceMicros}
        ${slotFree} and not ${input.budgetReached}
      returning ${organizations.balanceMicros}),
    entry as (
      insert into ${ledgerEntries} (organization_id, kind, amount_micros, request_id)
      select ${organizationId}::uuid, 'reservation', ${-priceMicros}::bigint, ${requestId}::uuid from debit
      on conflict (request_id, kind) where request_id is not null do nothing
      returning request_id),
    started as (${input.start ? input.start.takeSlot(sql`select 1 from debit`) : sql`select 1 where false`}),
    request as (
      insert into ${featureRequests} (${request.columns}) select ${request.values} from entry
      returning id, status)
    ${input.keyCharge ? sql`, key_charge as ${input.keyCharge}` : sql``}
    select (select balance_micros from debit) as balance, (select status from request) as status,
      case
        when not exists (select 1 from debit) then
          case when ${input.budgetReached} then 'budget-reached'
            ${concurrentLimit > 0 ? sql`when ${organizations.callsInFlight} >= ${concurrentLimit} then 'too-many-calls'` : sql``}
            else 'insufficient-balance' end
        when not exists (select 1 from request) then prism_refuse('duplicate-reference')::text
        ${input.keyCharge ? sql`when not exists (select 1 from key_charge) then prism_refuse('key-spend-cap-reached')::text` : sql``}
      end as refusal
      ${sql.join(watched, sql``)}
    from ${organizations} where ${organizations.id} = ${organizationId}`;
  const [row] = rowsOf<
    Record<string, unknown> & {
      balance: string | number | bigint | null;
      refusal: string | null;
      status: string | null;
    }
  >(await db.execute(statement));
  if (!row) return { reserved: false, refusal: "insufficient-balance" };
  if (row.refusal !== null || row.balance === null) {
    return { reserved: false, refusal: (row.refusal ?? "insufficient-balance") as ReservationRefusal };
  }
  const watch: Record<string, boolean> = {};
  for (const name of Object.keys(input.watch)) watch[name] = row[name] === true;
  return { reserved: true, started: row.status === "generating", balanceMicros: BigInt(row.balance), watch };
}

/** One call's share of a project's daily rollup row: what settling adds and a refund takes back. */
export interface UsageChange {
  projectId: string;
  endpoint: string;
  callType: string;
  day: string;
  units: number;
  costMicros: bigint;
}

export interface CallSettlementInput {
  requestId: string;
  organizationId: string;
  responseFile: string | null;
  responseBody: unknown;
  completedAt: Date;
  /**
   * The call's share of the rollups. Its day is the UTC day the call was made (its row's `created_at`),
   * read by the settling statement itself: the day its key's monthly cap charged it (decision 022).
   */
  usage: Omit<UsageChange, "day">;
  /** The upstream platform's cost and compute time, kept on the row for the operator. */
  upstream?: UpstreamUsage;
}

/** The settled request row (as the driver answers it) with the organization's balance after it. */
export type SettledRow = Record<string, unknown> & {
  answer_balance: string | number | bigint;
  recharge_due: boolean;
  /** Whether calls wait in the settled call's pool: the slot it frees has work to take. */
  queue_waiting: boolean;
};

/**
 * Settles a call in one statement: its row turns `done` (only from `generating`, and not after a
 * refund), and from that row the settlement entry is written, the organization's slot released, the
 * usage rollup raised on the day the call was made (and the key's, for a call made with an API key:
 * decisions 017 and 022), and the row and the balance read back with whether an armed auto
 * recharge's threshold is now above the balance. No row back: the call was refunded first (the
 * sweeper took it for abandoned), and nothing was written. `after` runs in the same transaction when
 * given (events, alerts, a training's follow-up job), which then takes a `begin` and a `commit` of its
 * own.
 */
export async function settleCall(
  db: Database,
  input: CallSettlementInput,
  after?: (tx: Executor, row: SettledRow) => Promise<void>,
): Promise<SettledRow | undefined> {
  const { usage } = input;
  const madeDay = sql`(done.created_at at time zone 'UTC')::date`;
  const statement = sql`with done as (
      update ${featureRequests}
      set status = 'done', response_file = ${input.responseFile},
        response_body = ${input.responseBody === null ? null : sql.param(input.responseBody, featureRequests.responseBody)}::jsonb,
        completed_at = ${input.completedAt.toISOString()}::timestamptz,
        upstream_cost_micros = ${input.upstream?.costMicros ?? null}::bigint,
        upstream_compute_ms = ${input.upstream?.computeMs ?? null}::integer
      where ${featureRequests.id} = ${input.requestId} and ${featureRequests.status} = 'generating'
        and not exists (select 1 from ${ledgerEntries} refunded
          where refunded.request_id = ${input.requestId}::uuid and refunded.kind = 'refund')
      returning *),
    settled as (
      insert into ${ledgerEntries} (organization_id, kind, amount_micros, request_id)
      select organization_id, 'settlement', 0, id from done
      on conflict (request_id, kind) where request_id is not null do nothing
      returning organization_id),
    released as (
      update ${organizations} set calls_in_flight = greatest(${organizations.callsInFlight} - 1, 0)
      where ${organizations.id} = (select organization_id from settled)
      returning ${organizations.id}, ${organizations.balanceMicros}),
    slot as (update ${providerSlots} set request_id = null where request_id = ${input.requestId}::uuid
      returning slot),
    usage as (
      insert into ${usageDaily} (project_id, endpoint, call_type, day, units, cost_micros, calls)
      select ${usage.projectId}::uuid, ${usage.endpoint}::text, ${usage.callType}::text, ${madeDay},
        ${usage.units}::bigint, ${usage.costMicros}::bigint, 1
      from settled cross join done
      on conflict (project_id, endpoint, call_type, day) do update set
        units = ${usageDaily.units} + excluded.units,
        cost_micros = ${usageDaily.costMicros} + excluded.cost_micros,
        calls = ${usageDaily.calls} + 1),
    key_usage as (
      insert into ${usageDailyKeys} (project_id, api_key_id, day, units, cost_micros, calls)
      select ${usage.projectId}::uuid, done.api_key_id, ${madeDay}, ${usage.units}::bigint,
        ${usage.costMicros}::bigint, 1
      from settled cross join done
      where done.api_key_id is not null
      on conflict (project_id, day, api_key_id) do update set
        units = ${usageDailyKeys.units} + excluded.units,
        cost_micros = ${usageDailyKeys.costMicros} + excluded.cost_micros,
        calls = ${usageDailyKeys.calls} + 1)
    select done.*, released.balance_micros as answer_balance,
      exists (select 1 from ${autoRechargeSettings} recharge
        where recharge.organization_id = released.id and recharge.enabled and recharge.armed
          and recharge.threshold_micros > released.balance_micros) as recharge_due,
      exists (select 1 from ${featureRequests} waiting
        where waiting.queue = done.queue and waiting.status = 'queued' and waiting.queue_tag is not null)
        as queue_waiting,
      case when released.id is null then prism_refuse('settlement-not-written') end as refused
    from done left join released on true`;
  if (!after) return rowsOf<SettledRow>(await db.execute(statement))[0];
  return db.transaction(async (tx) => {
    const [row] = rowsOf<SettledRow>(await tx.execute(statement));
    if (row) await after(tx, row);
    return row;
  });
}

/** The failed request row (as the driver answers it), when this refund was the one that failed it. */
export type FailedRow = Record<string, unknown> & { refunded: number };

/** How a call that did not succeed ends: failed (`error`) or canceled by its caller. */
export type UnsuccessfulEnd = "error" | "canceled";

export interface CallRefundInput {
  requestId: string;
  message: string;
  /** The error code the call answers with (kept on the row for a waiter in another process). */
  code: string;
  completedAt: Date;
  /** `error` by default. */
  end?: UnsuccessfulEnd;
  /**
   * Whether the call's slot goes back in the same statement: yes for its runner (or the sweeper of a
   * dead runner), no for a cancel of a running call, whose runner gives the slot back when it has
   * stopped the provider.
   */
  releaseSlot: boolean;
}

/**
 * Ends a call that did not succeed and gives its reservation back, in one transaction: the
 * reservation's entry is locked (as every refund path does), then one statement turns the row from
 * `queued` or `generating` to `error` or `canceled`, writes the refund entry from the reservation
 * (unless settled, and only when this update ended the row or no row exists: a reservation a crash
 * left without one), and credits the balance and releases the organization's count in a single update
 * of its row. `onRefunded` runs in the same transaction when money went back. True when this call made
 * the refund.
 */
export async function refundCall(
  db: Database,
  input: CallRefundInput,
  onRefunded?: (tx: Executor) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${ledgerEntries}
      where request_id = ${input.requestId}::uuid and kind = 'reservation' for update`);
    const [result] = rowsOf<{ refunded: number }>(
      await tx.execute(sql`with failed as (
          update ${featureRequests}
          set status = ${input.end ?? "error"}, error_message = ${input.message}, error_code = ${input.code},
            completed_at = ${input.completedAt.toISOString()}::timestamptz
          where ${featureRequests.id} = ${input.requestId} and ${featureRequests.status} in ('queued', 'generating')
          returning organization_id),
        refunded as (
          insert into ${ledgerEntries} (organization_id, kind, amount_micros, request_id)
          select reservation.organization_id, 'refund', -reservation.amount_micros, reservation.request_id
          from ${ledgerEntries} reservation
          where reservation.request_id = ${input.requestId}::uuid and reservation.kind = 'reservation'
            and not exists (select 1 from ${ledgerEntries} settlement
              where settlement.request_id = ${input.requestId}::uuid and settlement.kind = 'settlement')
            and (exists (select 1 from failed)
              or not exists (select 1 from ${featureRequests} where ${featureRequests.id} = ${input.requestId}))
          on conflict (request_id, kind) where request_id is not null do nothing
          returning organization_id, amount_micros),
        organization as (
          update ${organizations} set
            balance_micros = ${organizations.balanceMicros} + coalesce((select amount_micros from refunded), 0),
            calls_in_flight = case when exists (select 1 from failed)
              then greatest(${organizations.callsInFlight} - 1, 0) else ${organizations.callsInFlight} end
          where ${organizations.id} in (select organization_id from failed union select organization_id from refunded)
          returning ${organizations.id}),
        slot as (${
          input.releaseSlot
            ? sql`update ${providerSlots} set request_id = null where request_id = ${input.requestId}::uuid returning slot`
            : sql`select 1 where false`
        })
        select (select count(*)::int from refunded) as refunded`),
    );
    const refunded = Number(result?.refunded ?? 0) > 0;
    if (refunded && onRefunded) await onRefunded(tx);
    return refunded;
  });
}

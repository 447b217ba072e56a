import { featureByEndpoint, PLAYGROUND_CALLER, type UsageGroup } from "@prism/contract";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { rowsOf } from "../../db/client";
import { apiKeys, featureRequests, projects, usageDaily, usageDailyKeys } from "../../db/schema";

/** One bucket in micro-dollars, before it goes on the wire. */
export interface UsageRow {
  key: string | null;
  name: string;
  calls: number;
  units: number;
  costMicros: bigint;
}

/** The day after a YYYY-MM-DD date, as the exclusive end of a range. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export function featureName(endpoint: string): string {
  return featureByEndpoint(endpoint)?.name ?? endpoint;
}

/**
 * A project's usage over UTC days `start`..`end` (both included), grouped, from the daily rollups and
 * never the request log: days, features and the project from the project's rollup, API keys from the
 * keys' rollup (decision 017). Groups left with no call (a refunded training taken back out) are not
 * buckets.
 */
export async function usageOfProject(
  db: Executor,
  input: { projectId: string; start: string; end: string; groupBy: UsageGroup },
): Promise<UsageRow[]> {
  if (input.groupBy === "api_key") return usageByApiKey(db, input);
  const inRange = and(
    eq(usageDaily.projectId, input.projectId),
    gte(usageDaily.day, input.start),
    lt(usageDaily.day, nextDay(input.end)),
  );
  const totals = {
    calls: sql<string>`sum(${usageDaily.calls})`,
    units: sql<string>`sum(${usageDaily.units})`,
    costMicros: sql<string>`sum(${usageDaily.costMicros})`,
  };
  const having = sql`sum(${usageDaily.calls}) > 0`;
  const toRow = (key: string, name: string, row: { calls: string; units: string; costMicros: string }) => ({
    key,
    name,
    calls: Number(row.calls),
    units: Number(row.units),
    costMicros: BigInt(row.costMicros),
  });
  if (input.groupBy === "day") {
    const rows = await db
      .select({ day: usageDaily.day, ...totals })
      .from(usageDaily)
      .where(inRange)
      .groupBy(usageDaily.day)
      .having(having)
      .orderBy(usageDaily.day);
    return rows.map((row) => toRow(row.day, row.day, row));
  }
  if (input.groupBy === "feature") {
    const rows = await db
      .select({ endpoint: usageDaily.endpoint, ...totals })
      .from(usageDaily)
      .where(inRange)
      .groupBy(usageDaily.endpoint)
      .having(having)
      .orderBy(usageDaily.endpoint);
    return rows.map((row) => toRow(row.endpoint, featureName(row.endpoint), row));
  }
  const rows = await db
    .select({ projectId: usageDaily.projectId, name: projects.name, ...totals })
    .from(usageDaily)
    .innerJoin(projects, eq(projects.id, usageDaily.projectId))
    .where(inRange)
    .groupBy(usageDaily.projectId, projects.name)
    .having(having);
  return rows.map((row) => toRow(row.projectId, row.name, row));
}

/**
 * The keys' buckets from the keys' rollup, then the console's (Playground): console calls have no key
 * and no row there, so they are the project's total in its rollup less its keys'. Both rollups are
 * written by the statement that settles a call and taken back by the transaction that refunds one, and
 * both are read here in one statement (one snapshot), so the difference is exactly the settled calls
 * without a key, even while calls settle. A revoked key keeps its rows and its name.
 */
async function usageByApiKey(
  db: Executor,
  input: { projectId: string; start: string; end: string },
): Promise<UsageRow[]> {
  const end = nextDay(input.end);
  const rows = rowsOf<{
    api_key_id: string | null;
    name: string | null;
    calls: string;
    units: string;
    cost_micros: string;
  }>(
    await db.execute(sql`with keys as (
        select api_key_id, sum(calls) as calls, sum(units) as units, sum(cost_micros) as cost_micros
        from ${usageDailyKeys}
        where project_id = ${input.projectId} and day >= ${input.start}::date and day < ${end}::date
        group by api_key_id),
      project as (
        select coalesce(sum(calls), 0) as calls, coalesce(sum(units), 0) as units,
          coalesce(sum(cost_micros), 0) as cost_micros
        from ${usageDaily}
        where project_id = ${input.projectId} and day >= ${input.start}::date and day < ${end}::date)
      select * from (
        select keys.api_key_id, ${apiKeys.name} as name, keys.calls::text, keys.units::text,
          keys.cost_micros::text
        from keys inner join ${apiKeys} on ${apiKeys.id} = keys.api_key_id
        union all
        select null, null, (project.calls - coalesce((select sum(calls) from keys), 0))::text,
          (project.units - coalesce((select sum(units) from keys), 0))::text,
          (project.cost_micros - coalesce((select sum(cost_micros) from keys), 0))::text
        from project) buckets
      where calls::bigint > 0
      order by name nulls last, api_key_id`),
  );
  return rows.map((row) => ({
    key: row.api_key_id,
    name: row.api_key_id === null ? PLAYGROUND_CALLER : (row.name ?? ""),
    calls: Number(row.calls),
    units: Number(row.units),
    costMicros: BigInt(row.cost_micros),
  }));
}

/**
 * The cells of the calls export that come from names (a project's, a feature's, a key's), each as the
 * CSV writer (`csvCellWriter`) writes it: the database joins them into the rows it writes.
 */
export interface ExportCells {
  /** The project's name. */
  project: string;
  /** Per endpoint: its cell and its feature's name cell, joined by `,`. */
  endpoints: ReadonlyMap<string, string>;
  /** Per API key id: the key's name (empty for a key that no longer exists). */
  keys: ReadonlyMap<string, string>;
  /** The caller of a call made from the console. */
  playground: string;
}

/** One keyset batch of the calls export, written as CSV by the database. */
export interface ExportBatch {
  /** The batch's rows as CSV, each ended by a line break; empty when a cell was missing (see below). */
  text: string;
  rows: number;
  /** The last row's exact time (microseconds, which a Date drops) and id: the next batch's keyset. */
  last: { cursor: string; id: string } | undefined;
  /** Endpoints and API keys of the batch that `cells` has no cell for: add them and ask again. */
  unknownEndpoints: string[];
  unknownKeys: string[];
}

/**
 * A project's calls in `[from, to)`, oldest first, one batch after the keyset `after` (time, id), as the
 * rows of the calls CSV (`USAGE_EXPORT_COLUMNS`): each batch is one range scan of the (project, time,
 * id) index, so a month of any size is read in constant memory however far into it the export is.
 *
 * The database writes the rows: the time as `Date.toISOString()` writes it, the status, units, cost (none
 * for a failed or canceled call) and id, all cells that CSV writes as they are (a negative number, which
 * no row holds, would get the formula escape's `'`), and the name cells from `cells`. Reading ten columns
 * of half a million rows through the driver and joining them into CSV was most of the export's time in
 * this process (issue 35); a batch now arrives as one text. A row whose endpoint or key has no cell yet
 * makes the batch come back without text, naming what is missing, to be added and asked again (in
 * practice once per project, on its first batch).
 */
export async function exportBatchText(
  db: Executor,
  input: {
    projectId: string;
    from: Date;
    to: Date;
    after: { cursor: string; id: string } | undefined;
    limit: number;
    cells: ExportCells;
  },
): Promise<ExportBatch> {
  const { after, cells } = input;
  const endpointCells = JSON.stringify([...cells.endpoints].map(([endpoint, text]) => ({ endpoint, text })));
  const keyCells = JSON.stringify([...cells.keys].map(([id, text]) => ({ id, text })));
  const [row] = rowsOf<{
    rows: number;
    text: string | null;
    last_cursor: string | null;
    last_id: string | null;
    unknown_endpoints: string[];
    unknown_keys: string[];
  }>(
    await db.execute(sql`with batch as (
        select id, created_at, endpoint, api_key_id, status, units,
          case when status in ('error', 'canceled') then 0::bigint else price_micros end as cost
        from ${featureRequests}
        where project_id = ${input.projectId} and created_at >= ${input.from.toISOString()}::timestamptz
          and created_at < ${input.to.toISOString()}::timestamptz
          ${after ? sql`and (created_at, id) > (${after.cursor}::timestamptz, ${after.id}::uuid)` : sql``}
        order by created_at, id
        limit ${input.limit}),
      cells as (
        select batch.*, endpoint_cell.text as endpoint_text,
          case when api_key_id is null then ${cells.playground}::text else key_cell.text end as caller_text
        from batch
        left join jsonb_to_recordset(${endpointCells}::jsonb) as endpoint_cell(endpoint text, text text)
          on endpoint_cell.endpoint = batch.endpoint
        left join jsonb_to_recordset(${keyCells}::jsonb) as key_cell(id uuid, text text)
          on key_cell.id = batch.api_key_id)
      select count(*)::int as rows,
        string_agg(
          to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ','
            || ${cells.project}::text || ',' || endpoint_text || ',' || caller_text || ',' || status || ','
            || case when units < 0 then '''' else '' end || units::text || ','
            || case when cost < 0 then '''-' else '' end || (abs(cost) / 1000000)::text || '.'
            || lpad((abs(cost) % 1000000)::text, 6, '0') || ',' || id::text || E'\n',
          '' order by created_at, id) as text,
        (array_agg(created_at::text order by created_at desc, id desc))[1] as last_cursor,
        (array_agg(id::text order by created_at desc, id desc))[1] as last_id,
        coalesce(array_agg(distinct endpoint) filter (where endpoint_text is null), '{}') as unknown_endpoints,
        coalesce(array_agg(distinct api_key_id::text) filter (where caller_text is null), '{}') as unknown_keys
      from cells`),
  );
  if (!row) throw new Error("the export's batch query returned no row");
  const missing = row.unknown_endpoints.length > 0 || row.unknown_keys.length > 0;
  return {
    text: missing ? "" : (row.text ?? ""),
    rows: row.rows,
    last: row.last_cursor && row.last_id ? { cursor: row.last_cursor, id: row.last_id } : undefined,
    unknownEndpoints: row.unknown_endpoints,
    unknownKeys: row.unknown_keys,
  };
}

/** The names of API keys by id (keys that no longer exist are left out). */
export async function apiKeyNames(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name })
    .from(apiKeys)
    .where(inArray(apiKeys.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A project's name, or undefined when it does not exist. */
export async function projectName(db: Executor, projectId: string): Promise<string | undefined> {
  const [row] = await db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
  return row?.name;
}

/** The month's calls per UTC day and feature of the projects, from the daily rollup. */
export async function summaryOfProjects(
  db: Executor,
  input: { projectIds: string[]; start: string; endExclusive: string },
) {
  return db
    .select({
      day: usageDaily.day,
      endpoint: usageDaily.endpoint,
      calls: sql<string>`sum(${usageDaily.calls})`,
      units: sql<string>`sum(${usageDaily.units})`,
      costMicros: sql<string>`sum(${usageDaily.costMicros})`,
    })
    .from(usageDaily)
    .where(
      and(
        inArray(usageDaily.projectId, input.projectIds),
        gte(usageDaily.day, input.start),
        lt(usageDaily.day, input.endExclusive),
      ),
    )
    .groupBy(usageDaily.day, usageDaily.endpoint)
    .having(sql`sum(${usageDaily.calls}) > 0`)
    .orderBy(usageDaily.day, usageDaily.endpoint);
}

/**
 * The statistics of projects over `[start, endExclusive)` (UTC days) per endpoint, call type and day,
 * from the daily rollup.
 */
export async function statisticsOfProjects(
  db: Executor,
  input: { projectIds: readonly string[]; start: string; endExclusive: string },
) {
  if (input.projectIds.length === 0) return [];
  return db
    .select({
      endpoint: usageDaily.endpoint,
      callType: usageDaily.callType,
      day: usageDaily.day,
      units: sql<string>`sum(${usageDaily.units})`,
      costMicros: sql<string>`sum(${usageDaily.costMicros})`,
    })
    .from(usageDaily)
    .where(
      and(
        inArray(usageDaily.projectId, [...input.projectIds]),
        gte(usageDaily.day, input.start),
        lt(usageDaily.day, input.endExclusive),
      ),
    )
    .groupBy(usageDaily.endpoint, usageDaily.callType, usageDaily.day)
    .orderBy(usageDaily.day, usageDaily.endpoint, usageDaily.callType);
}

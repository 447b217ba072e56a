import { featureByEndpoint, PLAYGROUND_CALLER, type RequestStatus, type UsageGroup } from "@prism/contract";
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
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

/** One row of the calls export, as read from the request log. */
export interface ExportedCall {
  id: string;
  /**
   * The time as `Date.toISOString()` writes it (UTC, milliseconds, both cut the microseconds off),
   * formatted by the database: parsing a Date per row and writing it back was a third of the export's
   * CSV time in this process (issue 35).
   */
  createdAtIso: string;
  /** The row's exact time (microseconds, which a Date drops), for the next batch's keyset. */
  cursor: string;
  projectName: string;
  endpoint: string;
  apiKeyId: string | null;
  apiKeyName: string | null;
  status: RequestStatus;
  units: number;
  priceMicros: bigint;
}

/**
 * A project's calls in `[from, to)`, oldest first, one batch after the keyset `after` (time, id): each
 * batch is one range scan of the (project, time, id) index, so a month of any size is read in
 * constant memory however far into it the export is.
 */
export async function exportBatch(
  db: Executor,
  input: {
    projectId: string;
    from: Date;
    to: Date;
    after: { cursor: string; id: string } | undefined;
    limit: number;
  },
): Promise<ExportedCall[]> {
  const after = input.after;
  return db
    .select({
      id: featureRequests.id,
      createdAtIso: sql<string>`to_char(${featureRequests.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      cursor: sql<string>`${featureRequests.createdAt}::text`,
      projectName: projects.name,
      endpoint: featureRequests.endpoint,
      apiKeyId: featureRequests.apiKeyId,
      apiKeyName: apiKeys.name,
      status: featureRequests.status,
      units: featureRequests.units,
      priceMicros: featureRequests.priceMicros,
    })
    .from(featureRequests)
    .innerJoin(projects, eq(projects.id, featureRequests.projectId))
    .leftJoin(apiKeys, eq(apiKeys.id, featureRequests.apiKeyId))
    .where(
      and(
        eq(featureRequests.projectId, input.projectId),
        gte(featureRequests.createdAt, input.from),
        lt(featureRequests.createdAt, input.to),
        after
          ? sql`(${featureRequests.createdAt}, ${featureRequests.id}) > (${after.cursor}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(featureRequests.createdAt), asc(featureRequests.id))
    .limit(input.limit);
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

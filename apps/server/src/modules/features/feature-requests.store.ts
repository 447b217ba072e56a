import { type HistoryRequestRecord, microsToUsd, pegasusTrainingFeature } from "@prism/contract";
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "../../db/client";
import { featureRequests, organizations, usageDaily, usageDailyKeys } from "../../db/schema";
import { alertsConfigured, budgetReached } from "../alerts/alerts.store";
import { subscribed } from "../events/events.store";
import type { UsageChange } from "../ledger/call-ledger.store";

type RequestRow = typeof featureRequests.$inferSelect;

const TRAINING_ENDPOINT = pegasusTrainingFeature.endpoint;

export const FILE_URL_PREFIX = "/v1/files/";

export function fileUrl(key: string): string {
  return `${FILE_URL_PREFIX}${key}`;
}

/** The history record of the spec, as the playground and API users receive it. */
export function toHistoryRecord(row: RequestRow): HistoryRequestRecord {
  const files = Object.fromEntries(
    Object.entries(row.requestFiles).map(([field, keys]) => [field, keys.map(fileUrl)]),
  );
  return {
    id: row.id,
    request_date: row.createdAt.toISOString(),
    request_data: { files, body: row.requestBody },
    response_data: {
      ...(row.responseFile ? { file: fileUrl(row.responseFile) } : {}),
      ...(row.responseBody !== null && row.responseBody !== undefined ? { body: row.responseBody } : {}),
    },
    status: row.status,
    cost: microsToUsd(costOfRequestMicros(row)),
  };
}

/** What a call cost: its reserved price, unless it failed or was canceled, in which case it was refunded. */
export function costOfRequestMicros(row: Pick<RequestRow, "status" | "priceMicros">): bigint {
  return row.status === "error" || row.status === "canceled" ? 0n : row.priceMicros;
}

/**
 * The record with its file URLs made absolute on `origin` (PUBLIC_URL). API users download results
 * outside a browser, where a path alone does not say which host to ask.
 */
export function withAbsoluteFileUrls(record: HistoryRequestRecord, origin: string): HistoryRequestRecord {
  const absolute = (url: string) => (url.startsWith(FILE_URL_PREFIX) ? `${origin}${url}` : url);
  const files = Object.fromEntries(
    Object.entries(record.request_data.files).map(([field, urls]) => [field, urls.map(absolute)]),
  );
  return {
    ...record,
    request_data: { ...record.request_data, files },
    response_data: {
      ...record.response_data,
      ...(record.response_data.file ? { file: absolute(record.response_data.file) } : {}),
    },
  };
}

/**
 * A project's finished AI Clone training by its request id (the clone's `id` in get-trained-identities),
 * or undefined when it is another project's, deleted, failed or still being submitted.
 */
export async function findFinishedTraining(db: Executor, input: { projectId: string; requestId: string }) {
  const [row] = await db
    .select({ id: featureRequests.id, responseBody: featureRequests.responseBody })
    .from(featureRequests)
    .where(
      and(
        eq(featureRequests.id, input.requestId),
        eq(featureRequests.projectId, input.projectId),
        eq(featureRequests.endpoint, TRAINING_ENDPOINT),
        eq(featureRequests.status, "done"),
        isNull(featureRequests.deletedAt),
      ),
    );
  return row;
}

/** A request row as a raw statement returns it (`returning *`, column names), typed as Drizzle reads it. */
export function requestRowFrom(raw: Record<string, unknown>): RequestRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(featureRequests))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as RequestRow;
}

/** A call's share of the rollups with the key it was made with (null: a console call, in no key's row). */
export type KeyedUsageChange = UsageChange & { apiKeyId: string | null };

/**
 * Adds a settled call to the daily rollups, in the settling transaction (the pipeline does it within
 * the settling statement, see `settleCall`; this is the same write for a call recorded otherwise).
 */
export async function addUsage(tx: Executor, input: KeyedUsageChange) {
  const { apiKeyId, ...usage } = input;
  await usageAddition(tx, usage);
  if (apiKeyId === null) return;
  await tx
    .insert(usageDailyKeys)
    .values({
      projectId: usage.projectId,
      apiKeyId,
      day: usage.day,
      units: usage.units,
      costMicros: usage.costMicros,
      calls: 1,
    })
    .onConflictDoUpdate({
      target: [usageDailyKeys.projectId, usageDailyKeys.day, usageDailyKeys.apiKeyId],
      set: {
        units: sql`${usageDailyKeys.units} + ${usage.units}`,
        costMicros: sql`${usageDailyKeys.costMicros} + ${usage.costMicros}`,
        calls: sql`${usageDailyKeys.calls} + 1`,
      },
    });
}

/** The upsert of the project's rollup row, to await or to embed in a larger statement. */
export function usageAddition(tx: Executor, input: UsageChange) {
  return tx
    .insert(usageDaily)
    .values({ ...input, calls: 1 })
    .onConflictDoUpdate({
      target: [usageDaily.projectId, usageDaily.endpoint, usageDaily.callType, usageDaily.day],
      set: {
        units: sql`${usageDaily.units} + ${input.units}`,
        costMicros: sql`${usageDaily.costMicros} + ${input.costMicros}`,
        calls: sql`${usageDaily.calls} + 1`,
      },
    });
}

/**
 * Takes a refunded call back out of the daily rollups, in the refunding transaction: the project's row
 * and, for a call made with a key, the key's, so the usage API's groupings keep agreeing. Rows left at
 * zero stay (as a settled call would find them); the usage API leaves out groups with no call.
 */
export async function removeUsage(tx: Executor, input: KeyedUsageChange) {
  await tx
    .update(usageDaily)
    .set({
      units: sql`${usageDaily.units} - ${input.units}`,
      costMicros: sql`${usageDaily.costMicros} - ${input.costMicros}`,
      calls: sql`${usageDaily.calls} - 1`,
    })
    .where(
      and(
        eq(usageDaily.projectId, input.projectId),
        eq(usageDaily.endpoint, input.endpoint),
        eq(usageDaily.callType, input.callType),
        eq(usageDaily.day, input.day),
      ),
    );
  if (input.apiKeyId === null) return;
  await tx
    .update(usageDailyKeys)
    .set({
      units: sql`${usageDailyKeys.units} - ${input.units}`,
      costMicros: sql`${usageDailyKeys.costMicros} - ${input.costMicros}`,
      calls: sql`${usageDailyKeys.calls} - 1`,
    })
    .where(
      and(
        eq(usageDailyKeys.projectId, input.projectId),
        eq(usageDailyKeys.day, input.day),
        eq(usageDailyKeys.apiKeyId, input.apiKeyId),
      ),
    );
}

export async function findRequestRow(db: Executor, requestId: string) {
  const [row] = await db.select().from(featureRequests).where(eq(featureRequests.id, requestId));
  return row;
}

/** A project's call by id (undefined when it is another project's, deleted from its history, or none). */
export async function findRequestOfProject(db: Executor, input: { projectId: string; requestId: string }) {
  const [row] = await db
    .select()
    .from(featureRequests)
    .where(
      and(
        eq(featureRequests.id, input.requestId),
        eq(featureRequests.projectId, input.projectId),
        isNull(featureRequests.deletedAt),
      ),
    );
  return row;
}

/**
 * Whether anyone watches a call's end besides its caller, read when a queued call is settled by
 * whichever process ran it (a call started at once reads the same with its reservation).
 */
export async function findCallWatchers(db: Executor, organizationId: string, training: boolean) {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select ${alertsConfigured(organizationId)} as alerts,
      ${subscribed(organizationId, "request.succeeded")} as succeeded
      ${training ? sql`, ${subscribed(organizationId, "training.ready")} as ready` : sql``}`),
  );
  return {
    alerts: row?.alerts === true,
    succeeded: row?.succeeded === true,
    ...(training ? { ready: row?.ready === true } : {}),
  };
}

/** What admitting a call reads of its organization: balance, first deposit, calls in flight, budget stop. */
export async function findAdmissionState(db: Executor, organizationId: string) {
  const [row] = await db
    .select({
      balanceMicros: organizations.balanceMicros,
      isNew: organizations.isNew,
      callsInFlight: organizations.callsInFlight,
      budgetReached: budgetReached(organizationId),
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}

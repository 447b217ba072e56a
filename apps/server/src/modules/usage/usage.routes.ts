import { pipeline, Readable } from "node:stream";
import {
  calls,
  ENDPOINT_DESCRIPTORS,
  microsToDecimalText,
  microsToUsd,
  PLAYGROUND_CALLER,
  SIGN_IN_REQUIRED,
  USAGE_EXPORT_COLUMNS,
  USAGE_EXPORT_PATH,
  USAGE_PATH,
  USAGE_SUMMARY_COLUMNS,
  USAGE_SUMMARY_EXPORT_PATH,
  type UsageExportQuery,
  usageExportFileName,
  usageExportQuery,
  usageQuery,
  usageResponse,
} from "@prism/contract";
import { stringify } from "csv-stringify";
import { stringify as stringifyRows } from "csv-stringify/sync";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { bearerKeyOf, requireApiKey } from "../../http/api-key-auth";
import { chunkedWrites, csvCellWriter, readAhead, SAFE_CSV_OPTIONS } from "../../http/csv";
import { registerCall } from "../../http/register-call";
import {
  isTwoFactorEnrolmentRequired,
  NOT_FOUND_PROJECT,
  requireProjectAccess,
} from "../access/access.service";
import type { ApiKeyPrincipal } from "../api-keys/api-key-runtime.service";
import { authenticateSessionToken } from "../auth/session.service";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { registerRequestLogRoutes } from "./request-log.routes";
import {
  apiKeyNames,
  exportBatchText,
  featureName,
  projectName,
  statisticsOfProjects,
  summaryOfProjects,
  usageOfProject,
} from "./usage.store";

/** What these routes use of the application's dependencies. */
export type UsageRouteDeps = Pick<AppDependencies, "config" | "database">;

/**
 * Rows read from the request log per query of the calls export. The export holds at most two batches
 * (one being written, one read ahead). With the read-ahead the round trips overlap the writing: in the
 * scale bench 2,000 rows a batch took no more CPU or time than 5,000 (same run, same bytes) and holds
 * less.
 */
export const EXPORT_BATCH_ROWS = 2_000;

async function requireKey(
  deps: UsageRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ApiKeyPrincipal> {
  const bearer = bearerKeyOf(request);
  if (!bearer) throw new AppError("unauthenticated", "Send an API key as `Authorization: Bearer <key>`.");
  return requireApiKey(deps, bearer, request, reply);
}

/** The month of an export as a UTC range: `[from, to)` and its first day and the next month's. */
function monthRange(month: string) {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const from = new Date(Date.UTC(year, monthNumber - 1, 1));
  const to = new Date(Date.UTC(year, monthNumber, 1));
  return { from, to, start: from.toISOString().slice(0, 10), endExclusive: to.toISOString().slice(0, 10) };
}

/**
 * The projects among `projectIds` the user may see (the statistics' permission); the others are left
 * out, as the statistics and the exports leave them out rather than refusing the whole request. The
 * owner's two-factor requirement is not left out but refuses the request: the member must enrol first.
 */
async function visibleProjects(db: Executor, userId: string, projectIds: Iterable<string>) {
  const allowed: string[] = [];
  for (const projectId of new Set(projectIds)) {
    const access = await requireProjectAccess(db, userId, projectId).catch((error: unknown) => {
      if (isTwoFactorEnrolmentRequired(error)) throw error;
      return undefined;
    });
    if (access) allowed.push(projectId);
  }
  return allowed;
}

export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps): void {
  const db = deps.database.db;
  registerRequestLogRoutes(app, deps);

  app.get(USAGE_PATH, async (request, reply) => {
    const principal = await requireKey(deps, request, reply);
    const query = usageQuery.parse(request.query);
    const rows = await usageOfProject(db, {
      projectId: principal.projectId,
      start: query.start,
      end: query.end,
      groupBy: query.group_by,
    });
    return usageResponse.parse({
      start: query.start,
      end: query.end,
      group_by: query.group_by,
      buckets: rows.map(({ costMicros, ...row }) => ({ ...row, cost: microsToUsd(costMicros) })),
    });
  });

  /**
   * The exports' caller: a signed-in user, and the projects named that they may see (the statistics'
   * permission, and like the statistics the others are left out); none at all answers 404.
   */
  async function authorizeExport(request: FastifyRequest): Promise<UsageExportQuery> {
    const user = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
    if (!user) throw new AppError("unauthenticated", SIGN_IN_REQUIRED);
    const query = usageExportQuery.parse(request.query);
    const allowed = await visibleProjects(db, user.userId, query.projectIds);
    if (allowed.length === 0) throw new AppError("not-found", NOT_FOUND_PROJECT);
    return { ...query, projectIds: allowed };
  }

  /** Sends a CSV stream in 64 KiB writes (see chunkedWrites): the compressor after it gets few, large ones. */
  function sendCsv(reply: FastifyReply, fileName: string, csv: Readable) {
    const chunked = chunkedWrites();
    // A failure or a client gone away on either side stops the other (and, through it, the reads).
    pipeline(csv, chunked, () => undefined);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${fileName}"`)
      .header("cache-control", "no-store")
      .send(chunked);
  }

  // Every call of the month, project after project in time order, streamed: rows are read in keyset
  // batches and written as the client takes them, so no month is ever held in memory. The database
  // writes each batch as CSV text, with the name cells (project, feature, key) written here once each
  // (exportBatchText); the next batch is read while the current one is compressed and sent (readAhead).
  app.get(USAGE_EXPORT_PATH, async (request, reply) => {
    const query = await authorizeExport(request);
    const { from, to } = monthRange(query.month);
    const cell = csvCellWriter();
    const endpoints = new Map<string, string>();
    const keys = new Map<string, string>();
    const playground = cell(PLAYGROUND_CALLER);
    async function* batches() {
      for (const projectId of query.projectIds) {
        const cells = {
          project: cell((await projectName(db, projectId)) ?? ""),
          endpoints,
          keys,
          playground,
        };
        let after: { cursor: string; id: string } | undefined;
        for (;;) {
          const read = () =>
            exportBatchText(db, { projectId, from, to, after, limit: EXPORT_BATCH_ROWS, cells });
          let batch = await read();
          // Until every row has its cells: a key first used while the month is being exported shows up
          // in a batch after the one that learnt the others.
          while (batch.unknownEndpoints.length > 0 || batch.unknownKeys.length > 0) {
            for (const endpoint of batch.unknownEndpoints)
              endpoints.set(endpoint, `${cell(endpoint)},${cell(featureName(endpoint))}`);
            const names = await apiKeyNames(db, batch.unknownKeys);
            for (const id of batch.unknownKeys) keys.set(id, cell(names.get(id) ?? ""));
            batch = await read();
          }
          yield batch.text;
          if (!batch.last || batch.rows < EXPORT_BATCH_ROWS) break;
          after = batch.last;
        }
      }
    }
    async function* csvText() {
      yield stringifyRows([], { ...SAFE_CSV_OPTIONS, header: true, columns: [...USAGE_EXPORT_COLUMNS] });
      for await (const text of readAhead(batches())) if (text !== "") yield text;
    }
    const source = Readable.from(csvText(), { objectMode: false });
    source.on("error", (error) => request.log.error({ err: error }, "usage export failed"));
    return sendCsv(reply, usageExportFileName(query.month, "calls"), source);
  });

  // The month per UTC day and feature, from the daily rollup (a few hundred rows at most).
  app.get(USAGE_SUMMARY_EXPORT_PATH, async (request, reply) => {
    const query = await authorizeExport(request);
    const { start, endExclusive } = monthRange(query.month);
    const rows = await summaryOfProjects(db, { projectIds: query.projectIds, start, endExclusive });
    const csv = stringify(
      rows.map((row) => [
        row.day,
        row.endpoint,
        featureName(row.endpoint),
        String(Number(row.calls)),
        String(Number(row.units)),
        microsToDecimalText(BigInt(row.costMicros)),
      ]),
      { ...SAFE_CSV_OPTIONS, header: true, columns: [...USAGE_SUMMARY_COLUMNS] },
    );
    return sendCsv(reply, usageExportFileName(query.month, "summary"), csv);
  });

  registerCall(app, deps, calls.statistics.get, async ({ user, body }) => {
    const allowed = await visibleProjects(db, user.userId, body.projectIds);
    const start = body.queryDate.slice(0, 10);
    const startDate = new Date(`${start}T00:00:00Z`);
    const endExclusive = new Date(Date.UTC(startDate.getUTCFullYear(), startDate.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const rows = await statisticsOfProjects(db, { projectIds: allowed, start, endExclusive });
    return {
      statistics: rows.map((row) => ({
        endpoint: row.endpoint,
        callType: row.callType.toLowerCase(),
        recordDate: row.day,
        unitsUsed: Number(row.units),
        balanceUsed: microsToUsd(BigInt(row.costMicros)),
      })),
      endpoints: [...ENDPOINT_DESCRIPTORS],
    };
  });
}

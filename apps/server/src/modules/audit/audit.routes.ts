import { Readable } from "node:stream";
import {
  AUDIT_EXPORT_COLUMNS,
  AUDIT_EXPORT_PATH,
  auditExportFileName,
  auditFilterSchema,
  calls,
} from "@prism/contract";
import { stringify } from "csv-stringify";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { SAFE_CSV_OPTIONS } from "../../http/csv";
import { registerCall } from "../../http/register-call";
import { requireSessionUser } from "../../http/resolve-caller";
import { authorizeOrganization } from "../access/access.service";
import { listAuditLog, normalizedFilter, toAuditEntry } from "./audit.service";
import { type AuditCursor, listAuditEntries } from "./audit.store";

/** What these routes use of the application's dependencies. */
export type AuditRouteDeps = Pick<AppDependencies, "config" | "database">;

/** Entries read per query of a CSV export: the most the export holds in memory at once. */
export const AUDIT_EXPORT_BATCH_ROWS = 1_000;

export function registerAuditRoutes(app: FastifyInstance, deps: AuditRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.audit.list, ({ body }) => listAuditLog(db, body));

  // Every entry the filters match, newest first, streamed: read in keyset batches and written as the
  // client takes them, so a long history is never held in memory.
  app.get(AUDIT_EXPORT_PATH, async (request, reply) => {
    const user = await requireSessionUser(deps, request);
    const query = auditFilterSchema.parse(request.query);
    // The export reads what the list call reads, under the list call's declared right.
    await authorizeOrganization(db, user.userId, query.organizationId, calls.audit.list.access.permission);
    const filter = normalizedFilter(query);
    async function* rows() {
      if (!filter) return;
      let after: AuditCursor | undefined;
      for (;;) {
        const batch = await listAuditEntries(db, filter, { after, limit: AUDIT_EXPORT_BATCH_ROWS });
        for (const row of batch) {
          const entry = toAuditEntry(row);
          yield [
            entry.createdAt,
            entry.actor.type,
            entry.actor.id ?? "",
            entry.actor.name ?? "",
            entry.action,
            entry.targetType,
            entry.targetId ?? "",
            entry.changes ? JSON.stringify(entry.changes) : "",
            entry.ip ?? "",
            entry.id,
          ];
        }
        const last = batch.at(-1);
        if (!last || batch.length < AUDIT_EXPORT_BATCH_ROWS) break;
        after = { createdAt: last.cursor, id: last.id };
      }
    }
    const csv = stringify({ ...SAFE_CSV_OPTIONS, header: true, columns: [...AUDIT_EXPORT_COLUMNS] });
    const source = Readable.from(rows());
    source.on("error", (error) => {
      request.log.error({ err: error }, "audit export failed");
      csv.destroy(error);
    });
    csv.on("close", () => source.destroy());
    source.pipe(csv);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${auditExportFileName(query.organizationId)}"`)
      .header("cache-control", "no-store")
      .send(csv);
  });
}

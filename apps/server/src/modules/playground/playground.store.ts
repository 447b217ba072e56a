import { HISTORY_PAGE_SIZE } from "@prism/contract";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { featureRequests } from "../../db/schema";

/** Where a history page ended: the last row's exact time (microseconds, as text) and its id. */
export interface HistoryKeyset {
  at: string;
  id: string;
}

/**
 * One page of a project's history for one endpoint, newest first; one extra row says whether more exist.
 * After a keyset the history index (project, endpoint, time, id) is read from that row on, so a page at
 * any depth costs what the first does; an offset (the spec's paging, bounded by HISTORY_MAX_OFFSET)
 * walks the rows it skips.
 */
export async function listHistory(
  db: Executor,
  input: { projectId: string; endpoint: string; offset: number; after?: HistoryKeyset },
) {
  const rows = await db
    .select({ row: featureRequests, at: sql<string>`${featureRequests.createdAt}::text` })
    .from(featureRequests)
    .where(
      and(
        eq(featureRequests.projectId, input.projectId),
        eq(featureRequests.endpoint, input.endpoint),
        isNull(featureRequests.deletedAt),
        // A row comparison, so rows sharing one instant are split by id and none is repeated or skipped.
        input.after
          ? sql`(${featureRequests.createdAt}, ${featureRequests.id}) < (${input.after.at}::timestamptz, ${input.after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id))
    .limit(HISTORY_PAGE_SIZE + 1)
    .offset(input.after ? 0 : input.offset);
  const page = rows.slice(0, HISTORY_PAGE_SIZE);
  const last = page.at(-1);
  return {
    rows: page.map((entry) => entry.row),
    hasMoreItems: rows.length > HISTORY_PAGE_SIZE,
    next: rows.length > HISTORY_PAGE_SIZE && last ? { at: last.at, id: last.row.id } : undefined,
  };
}

/**
 * Soft-deletes a project's finished request, or answers undefined when there is none (another project's,
 * already deleted, or still generating: its money is not settled yet). The row keeps the money trail.
 */
export async function softDeleteRequest(db: Executor, input: { projectId: string; requestId: string }) {
  const [deleted] = await db
    .update(featureRequests)
    .set({ deletedAt: new Date() })
    .where(
      and(
        eq(featureRequests.id, input.requestId),
        eq(featureRequests.projectId, input.projectId),
        isNull(featureRequests.deletedAt),
        sql`${featureRequests.status} <> 'generating'`,
      ),
    )
    .returning();
  return deleted;
}

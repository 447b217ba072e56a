import { HISTORY_PAGE_SIZE } from "@prism/contract";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { featureRequests } from "../../db/schema";

/** One page of a project's history for one endpoint, newest first; one extra row says whether more exist. */
export async function listHistory(
  db: Executor,
  input: { projectId: string; endpoint: string; offset: number },
) {
  const rows = await db
    .select()
    .from(featureRequests)
    .where(
      and(
        eq(featureRequests.projectId, input.projectId),
        eq(featureRequests.endpoint, input.endpoint),
        isNull(featureRequests.deletedAt),
      ),
    )
    .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id))
    .limit(HISTORY_PAGE_SIZE + 1)
    .offset(input.offset);
  return { rows: rows.slice(0, HISTORY_PAGE_SIZE), hasMoreItems: rows.length > HISTORY_PAGE_SIZE };
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

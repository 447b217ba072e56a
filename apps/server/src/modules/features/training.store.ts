import type { IdentityStatus } from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { featureRequests } from "../../db/schema";

/** Data access of the AI Clone training poll: the request row whose answer holds the identity's status. */

export type TrainingRequestRow = typeof featureRequests.$inferSelect;

/** The request row, deleted from the history or not. */
export async function findTrainingRequest(
  db: Executor,
  requestId: string,
): Promise<TrainingRequestRow | undefined> {
  const [row] = await db.select().from(featureRequests).where(eq(featureRequests.id, requestId));
  return row;
}

/** Writes the identity's status into the request's answer. */
export async function setTrainingStatus(
  db: Executor,
  requestId: string,
  responseBody: { identityId: string; status: IdentityStatus },
): Promise<void> {
  await db.update(featureRequests).set({ responseBody }).where(eq(featureRequests.id, requestId));
}

/**
 * Writes `ready` into the request's answer unless it says so already; true only for the write that
 * turned it, so of any number of polls exactly one reports it.
 */
export async function markTrainingReady(
  tx: Executor,
  requestId: string,
  identityId: string,
): Promise<boolean> {
  const turned = await tx
    .update(featureRequests)
    .set({ responseBody: { identityId, status: "ready" } })
    .where(
      and(
        eq(featureRequests.id, requestId),
        sql`(${featureRequests.responseBody} ->> 'status') is distinct from 'ready'`,
      ),
    )
    .returning({ id: featureRequests.id });
  return turned.length > 0;
}

/** Turns a refunded training's request `error`, with the reason and the identity's failed status. */
export async function markTrainingFailed(
  tx: Executor,
  requestId: string,
  responseBody: { identityId: string; status: IdentityStatus },
  errorMessage: string,
): Promise<void> {
  await tx
    .update(featureRequests)
    .set({ status: "error", responseBody, errorMessage })
    .where(eq(featureRequests.id, requestId));
}

import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { projects } from "../../db/schema";

/** Data access of the projects module. */

export async function insertProject(tx: Executor, organizationId: string, name: string) {
  const [project] = await tx.insert(projects).values({ organizationId, name }).returning();
  if (!project) throw new Error("project insert returned no row");
  return project;
}

export async function setProjectName(tx: Executor, projectId: string, name: string): Promise<void> {
  await tx.update(projects).set({ name }).where(eq(projects.id, projectId));
}

/** Archives an active project; false when it was archived already (a parallel call). */
export async function archiveProjectRow(tx: Executor, projectId: string): Promise<boolean> {
  const archived = await tx
    .update(projects)
    .set({ archivedAt: sql`now()` })
    .where(and(eq(projects.id, projectId), isNull(projects.archivedAt)))
    .returning({ id: projects.id });
  return archived.length > 0;
}

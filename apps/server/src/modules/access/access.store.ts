import { and, asc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { organizationMembers, organizations, projects } from "../../db/schema";

export async function findActiveMembership(db: Executor, userId: string, organizationId: string) {
  const rows = await db
    .select({
      organization: organizations,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(
      and(
        eq(organizationMembers.userId, userId),
        eq(organizationMembers.organizationId, organizationId),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function listActiveProjectIds(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), isNull(projects.archivedAt)))
    .orderBy(asc(projects.createdAt), asc(projects.id));
  return rows.map((row) => row.id);
}

export async function findActiveProject(db: Executor, projectId: string) {
  const rows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), isNull(projects.archivedAt)))
    .limit(1);
  return rows[0];
}

import { ARCHIVE_LAST_PROJECT, type Project } from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { organizationMembers, projects } from "../../db/schema";
import { AppError } from "../../errors";
import {
  isUuid,
  NOT_FOUND_PROJECT,
  requireMembership,
  requireOwner,
  requirePermission,
  storablePermissions,
} from "../access/access.service";
import { findActiveProject } from "../access/access.store";

/**
 * Creating needs the owner or organization.general. A creator without "All Projects" is granted the
 * new project so that they can use what they made.
 */
export async function createProject(
  db: Database,
  userId: string,
  organizationId: string,
  name: string,
): Promise<Project> {
  const membership = await requireMembership(db, userId, organizationId);
  requirePermission(membership, "organization.general");
  return db.transaction(async (tx) => {
    const [project] = await tx.insert(projects).values({ organizationId, name }).returning();
    if (!project) throw new Error("project insert returned no row");
    if (!membership.isOwner && !membership.permissions.projects.all) {
      const granted = {
        ...membership.permissions,
        projects: { ...membership.permissions.projects, [project.id]: true },
      };
      await tx
        .update(organizationMembers)
        .set({ permissions: storablePermissions(granted, [...membership.projectIds, project.id]) })
        .where(
          and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)),
        );
    }
    return { id: project.id, name: project.name, organizationId: project.organizationId };
  });
}

async function requireOwnedProject(db: Database, userId: string, projectId: string) {
  if (!isUuid(projectId)) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const project = await findActiveProject(db, projectId);
  if (!project) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const membership = await requireMembership(db, userId, project.organizationId).catch(() => {
    throw new AppError("not-found", NOT_FOUND_PROJECT);
  });
  requireOwner(membership);
  return { project, membership };
}

export async function renameProject(db: Database, userId: string, projectId: string, name: string) {
  await requireOwnedProject(db, userId, projectId);
  await db.update(projects).set({ name }).where(eq(projects.id, projectId));
}

/** Archiving is a soft delete; an organization keeps at least one active project. */
export async function archiveProject(db: Database, userId: string, projectId: string) {
  const { membership } = await requireOwnedProject(db, userId, projectId);
  if (membership.projectIds.length <= 1) throw new AppError("last-project", ARCHIVE_LAST_PROJECT);
  await db
    .update(projects)
    .set({ archivedAt: sql`now()` })
    .where(and(eq(projects.id, projectId), sql`${projects.archivedAt} is null`));
}

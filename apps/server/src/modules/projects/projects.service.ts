import { ARCHIVE_LAST_PROJECT, type Project } from "@prism/contract";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import {
  isUuid,
  NOT_FOUND_PROJECT,
  refuseAsNotFound,
  requireMembership,
  requireOwner,
  requirePermission,
  storablePermissions,
} from "../access/access.service";
import { findActiveProject } from "../access/access.store";
import { recordAudit } from "../audit/audit.store";
import { setMemberPermissions } from "../members/members.store";
import { archiveProjectRow, insertProject, setProjectName } from "./projects.store";

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
    const project = await insertProject(tx, organizationId, name);
    await recordAudit(tx, {
      organizationId,
      action: "project.created",
      target: { type: "project", id: project.id },
      after: { name: project.name },
    });
    if (!membership.isOwner && !membership.permissions.projects.all) {
      const granted = {
        ...membership.permissions,
        projects: { ...membership.permissions.projects, [project.id]: true },
      };
      await setMemberPermissions(
        tx,
        organizationId,
        userId,
        storablePermissions(granted, [...membership.projectIds, project.id]),
      );
    }
    return { id: project.id, name: project.name, organizationId: project.organizationId };
  });
}

async function requireOwnedProject(db: Database, userId: string, projectId: string) {
  if (!isUuid(projectId)) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const project = await findActiveProject(db, projectId);
  if (!project) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const membership = await requireMembership(db, userId, project.organizationId).catch(
    refuseAsNotFound(new AppError("not-found", NOT_FOUND_PROJECT)),
  );
  requireOwner(membership);
  return { project, membership };
}

export async function renameProject(db: Database, userId: string, projectId: string, name: string) {
  const { project } = await requireOwnedProject(db, userId, projectId);
  await db.transaction(async (tx) => {
    await setProjectName(tx, projectId, name);
    await recordAudit(tx, {
      organizationId: project.organizationId,
      action: "project.renamed",
      target: { type: "project", id: projectId },
      before: { name: project.name },
      after: { name },
    });
  });
}

/** Archiving is a soft delete; an organization keeps at least one active project. */
export async function archiveProject(db: Database, userId: string, projectId: string) {
  const { project, membership } = await requireOwnedProject(db, userId, projectId);
  if (membership.projectIds.length <= 1) throw new AppError("last-project", ARCHIVE_LAST_PROJECT);
  await db.transaction(async (tx) => {
    if (!(await archiveProjectRow(tx, projectId))) return;
    await recordAudit(tx, {
      organizationId: project.organizationId,
      action: "project.archived",
      target: { type: "project", id: projectId },
      before: { name: project.name },
    });
  });
}

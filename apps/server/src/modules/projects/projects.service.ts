import { ARCHIVE_LAST_PROJECT, type Project } from "@prism/contract";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import { type Membership, storablePermissions } from "../access/access.service";
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
  /** The caller's, holding `organization.general` (the call's declared access). */
  membership: Membership,
  name: string,
): Promise<Project> {
  const { organizationId } = membership;
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

/** A project as the gate found it for a call declaring `owner` (the caller owns its organization). */
type OwnedProject = { id: string; name: string; organizationId: string };

export async function renameProject(db: Database, project: OwnedProject, name: string) {
  const projectId = project.id;
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
export async function archiveProject(db: Database, project: OwnedProject, membership: Membership) {
  const projectId = project.id;
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

import type { Executor } from "../../db/client";
import { organizationMembers, organizations, projects } from "../../db/schema";

export const DEFAULT_PROJECT_NAME = "Default Project";

/**
 * Creates an organization owned by `ownerId` with its first project. Call inside a transaction: the
 * three rows exist together or not at all.
 */
export async function insertOrganizationWithOwner(
  tx: Executor,
  input: { name: string; ownerId: string; projectName?: string },
) {
  const [organization] = await tx.insert(organizations).values({ name: input.name }).returning();
  if (!organization) throw new Error("organization insert returned no row");
  await tx
    .insert(organizationMembers)
    .values({ organizationId: organization.id, userId: input.ownerId, isOwner: true, permissions: {} });
  const [project] = await tx
    .insert(projects)
    .values({ organizationId: organization.id, name: input.projectName ?? DEFAULT_PROJECT_NAME })
    .returning();
  if (!project) throw new Error("project insert returned no row");
  return { organization, project };
}

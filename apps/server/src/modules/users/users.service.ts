import {
  emptyPermissions,
  fullPermissions,
  microsToUsd,
  type Permissions,
  permissionsSchema,
  type UserInfo,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { findUserById, listActiveMemberships, listActiveProjects } from "./users.store";

/**
 * A member's stored tree is parsed defensively: a row written by an older version that no longer fits
 * the schema grants nothing rather than failing the whole `me` call.
 */
function effectivePermissions(isOwner: boolean, stored: unknown, projectIds: string[]): Permissions {
  if (isOwner) return fullPermissions(true, projectIds);
  const parsed = permissionsSchema.safeParse({ ...(stored as object), owner: false });
  if (parsed.success) return parsed.data;
  return emptyPermissions(projectIds);
}

/** The spec's userInfo (000 §3): the user and every active organization with its projects. */
export async function getUserInfo(db: Executor, userId: string): Promise<UserInfo> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("unauthenticated", "Please sign in to continue.");
  const memberships = await listActiveMemberships(db, userId);
  const projectRows = await listActiveProjects(
    db,
    memberships.map((membership) => membership.organization.id),
  );

  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    creationDate: user.createdAt.toISOString(),
    organizations: memberships.map(({ organization, isOwner, permissions }) => {
      const organizationProjects = projectRows.filter(
        (project) => project.organizationId === organization.id,
      );
      const tree = effectivePermissions(
        isOwner,
        permissions,
        organizationProjects.map((project) => project.id),
      );
      return {
        id: organization.id,
        name: organization.name,
        balance: microsToUsd(organization.balanceMicros),
        projects: organizationProjects.map((project) => ({
          id: project.id,
          name: project.name,
          organizationId: project.organizationId,
        })),
        permissions: tree,
        properties: { isNew: organization.isNew },
        billingName: organization.billingName,
        billingEmail: organization.billingEmail,
        taxId: organization.taxId,
        address: organization.address,
        city: organization.city,
        state: organization.state,
        zipCode: organization.zipCode,
        country: organization.country,
      };
    }),
  };
}

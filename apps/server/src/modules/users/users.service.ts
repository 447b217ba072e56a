import {
  canAccessProject,
  microsToUsd,
  type Organization,
  SIGN_IN_REQUIRED,
  type StoredPermissions,
  type UserInfo,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import type { organizations, projects } from "../../db/schema";
import { AppError } from "../../errors";
import { effectivePermissions } from "../access/access.service";
import { findUserById, listActiveMemberships, listActiveProjects } from "./users.store";

type OrganizationRow = typeof organizations.$inferSelect;
type ProjectRow = typeof projects.$inferSelect;

/**
 * The organization as its member sees it: their own permissions, and only the projects they may use
 * (the pickers never offer a project the server would refuse).
 */
export function toOrganizationEntity(
  organization: OrganizationRow,
  membership: { isOwner: boolean; permissions: StoredPermissions },
  organizationProjects: ProjectRow[],
): Organization {
  const permissions = effectivePermissions(
    membership.isOwner,
    membership.permissions,
    organizationProjects.map((project) => project.id),
  );
  return {
    id: organization.id,
    name: organization.name,
    balance: microsToUsd(organization.balanceMicros),
    projects: organizationProjects
      .filter((project) => canAccessProject(permissions, project.id))
      .map((project) => ({ id: project.id, name: project.name, organizationId: project.organizationId })),
    permissions,
    properties: { isNew: organization.isNew, requireTwoFactor: organization.requireTwoFactor },
    billingName: organization.billingName,
    billingEmail: organization.billingEmail,
    taxId: organization.taxId,
    address: organization.address,
    city: organization.city,
    state: organization.state,
    zipCode: organization.zipCode,
    country: organization.country,
  };
}

/** The spec's userInfo: the user and every active organization with its projects. */
export async function getUserInfo(db: Executor, userId: string): Promise<UserInfo> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("unauthenticated", SIGN_IN_REQUIRED);
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
    organizations: memberships.map((membership) =>
      toOrganizationEntity(
        membership.organization,
        membership,
        projectRows.filter((project) => project.organizationId === membership.organization.id),
      ),
    ),
  };
}

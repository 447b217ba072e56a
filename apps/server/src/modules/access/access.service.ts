import {
  type CallPermission,
  canAccessProject,
  emptyPermissions,
  fullPermissions,
  GRANT_EXCEEDS_OWN_PERMISSIONS,
  hasPermission,
  normalizePermissions,
  PERMISSION_PATHS,
  type PermissionPath,
  type Permissions,
  PLAYGROUND_ACCESS_REFUSED,
  PROJECT_ACCESS_REFUSED,
  permissionsSchema,
  type StoredPermissions,
  TWO_FACTOR_ENROLMENT_REQUIRED,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import {
  findActiveMembership,
  findActiveProject,
  hasSecondFactor,
  listActiveProjectIds,
} from "./access.store";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that cannot be ours are "not found" without a query (and never reach a uuid cast). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * A member's effective tree: the owner has everything; others have their stored tree, normalized
 * against the organization's current projects. A stored tree that no longer parses grants nothing.
 */
export function effectivePermissions(
  isOwner: boolean,
  stored: StoredPermissions,
  projectIds: readonly string[],
): Permissions {
  if (isOwner) return fullPermissions(true, projectIds);
  const parsed = permissionsSchema.safeParse({ ...stored, owner: false });
  return parsed.success ? normalizePermissions(parsed.data, projectIds) : emptyPermissions(projectIds);
}

/** What is stored for a non-owner: the tree without the owner flag, normalized to the projects. */
export function storablePermissions(permissions: Permissions, projectIds: readonly string[]) {
  const { owner: _ignored, ...rest } = normalizePermissions({ ...permissions, owner: false }, projectIds);
  return rest;
}

export interface Membership {
  organizationId: string;
  organizationName: string;
  isOwner: boolean;
  permissions: Permissions;
  projectIds: string[];
}

export const NOT_FOUND_ORGANIZATION = "Organization not found.";
export const NOT_FOUND_PROJECT = "Project not found.";

/**
 * The one place a console session reaches an organization: the caller's membership of it, or
 * undefined when there is none (not a member, archived, no such organization). Every check below
 * (`requireMembership`, `requireProjectAccess` and so `requirePlaygroundAccess`) goes through it, so
 * the owner's two-factor requirement holds on every session path; an API key's calls never come here.
 */
async function resolveMembership(
  db: Executor,
  userId: string,
  organizationId: string,
): Promise<Membership | undefined> {
  const row = await findActiveMembership(db, userId, organizationId);
  if (!row) return undefined;
  // The owner's requirement: a member without a second factor may not use the organization until
  // they enrol (the web sends them to their profile on this code). Read only when it is on.
  if (row.organization.requireTwoFactor && !(await hasSecondFactor(db, userId))) {
    throw new AppError("two-factor-enrolment-required", TWO_FACTOR_ENROLMENT_REQUIRED);
  }
  const projectIds = await listActiveProjectIds(db, organizationId);
  return {
    organizationId,
    organizationName: row.organization.name,
    isOwner: row.isOwner,
    permissions: effectivePermissions(row.isOwner, row.permissions, projectIds),
    projectIds,
  };
}

/**
 * The caller's membership of an active organization. Anything else (no such organization, archived,
 * not a member) is the same 404, so ids of other tenants reveal nothing.
 */
export async function requireMembership(
  db: Executor,
  userId: string,
  organizationId: string,
): Promise<Membership> {
  if (!isUuid(organizationId)) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  const membership = await resolveMembership(db, userId, organizationId);
  if (!membership) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  return membership;
}

/** The owner's two-factor requirement refusing a member who has no second factor yet. */
export function isTwoFactorEnrolmentRequired(error: unknown): boolean {
  return error instanceof AppError && error.code === "two-factor-enrolment-required";
}

/**
 * For callers that answer every refusal with their own "not found" (so an id of another tenant, or a
 * resource the member may not see, reveals nothing): the owner's two-factor requirement still comes
 * through as itself, since it tells a member of the organization what to do, and the web acts on it.
 */
export function refuseAsNotFound(notFound: AppError): (error: unknown) => never {
  return (error) => {
    throw isTwoFactorEnrolmentRequired(error) ? error : notFound;
  };
}

export function requirePermission(membership: Membership, path: PermissionPath): void {
  if (!hasPermission(membership.permissions, path)) {
    throw new AppError("forbidden", "You do not have permission to do this in this organization.");
  }
}

export function requireOwner(membership: Membership): void {
  if (!membership.isOwner) {
    throw new AppError("forbidden", "Only the owner of the organization can do this.");
  }
}

/**
 * The right a call declares (`access.permission` in the contract) held in the membership: `member` needs
 * nothing more, `owner` the owner flag, a path that right (403 otherwise; the playground has its own text).
 */
export function requireCallPermission(membership: Membership, permission: CallPermission): void {
  if (permission === "member") return;
  if (permission === "owner") {
    requireOwner(membership);
    return;
  }
  if (permission === "organization.playground") {
    if (!hasPermission(membership.permissions, permission)) {
      throw new AppError("forbidden", PLAYGROUND_ACCESS_REFUSED);
    }
    return;
  }
  requirePermission(membership, permission);
}

/** An organization-scoped call's gate: the caller's membership (404 otherwise) holding `permission` (403). */
export async function authorizeOrganization(
  db: Executor,
  userId: string,
  organizationId: string,
  permission: CallPermission,
): Promise<Membership> {
  const membership = await requireMembership(db, userId, organizationId);
  requireCallPermission(membership, permission);
  return membership;
}

/**
 * A project-scoped call's gate: an active project of an active organization the caller belongs to (404
 * otherwise, the same for every tenant's id), then `permission`: the owner's calls need the owner flag
 * alone (which covers every project); any other needs the member's access to the project (403) and the
 * declared right (403).
 */
export async function authorizeProject(
  db: Executor,
  userId: string,
  projectId: string,
  permission: CallPermission,
) {
  if (!isUuid(projectId)) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const project = await findActiveProject(db, projectId);
  if (!project) throw new AppError("not-found", NOT_FOUND_PROJECT);
  const membership = await resolveMembership(db, userId, project.organizationId);
  if (!membership) throw new AppError("not-found", NOT_FOUND_PROJECT);
  if (permission !== "owner" && !canAccessProject(membership.permissions, projectId)) {
    throw new AppError("forbidden", PROJECT_ACCESS_REFUSED);
  }
  requireCallPermission(membership, permission);
  return { project, membership };
}

/** An active project of an active organization the caller belongs to and may use. */
export function requireProjectAccess(db: Executor, userId: string, projectId: string) {
  return authorizeProject(db, userId, projectId, "member");
}

/**
 * Each of `projectIds` is an active project of the membership's organization (else the 404 of an id
 * that does not exist) that the member may use (else 403): the statistics' and the Requests view's
 * right, for a call that names several projects of one organization.
 */
export function requireProjectsOfMembership(membership: Membership, projectIds: Iterable<string>): void {
  for (const projectId of projectIds) {
    if (!membership.projectIds.includes(projectId)) throw new AppError("not-found", NOT_FOUND_PROJECT);
    if (!canAccessProject(membership.permissions, projectId)) {
      throw new AppError("forbidden", PROJECT_ACCESS_REFUSED);
    }
  }
}

/**
 * A project the caller may use in the playground: access to the project and `organization.playground`.
 * Everything the playground shows or changes (feature calls, history, stored files, deletions, AI Clones)
 * goes through this one check, so no path reaches the playground's data with less.
 */
export function requirePlaygroundAccess(db: Executor, userId: string, projectId: string) {
  return authorizeProject(db, userId, projectId, "organization.playground");
}

/**
 * A member grants only what they hold. Refuses a tree (an invitation's, or a member's new one) that
 * turns on any right the grantor lacks, `projects.all` and each project included; the owner holds all.
 * `current` is the member's tree before an edit: a right they already had may stay without the grantor
 * holding it (keeping is not granting), and any right may be taken away.
 */
export function requireGrantable(grantor: Membership, requested: Permissions, current?: Permissions): void {
  const wanted = normalizePermissions({ ...requested, owner: false }, grantor.projectIds);
  const paths: PermissionPath[] = [
    ...PERMISSION_PATHS,
    ...grantor.projectIds.map((id): PermissionPath => `projects.${id}`),
  ];
  const beyond = paths.filter(
    (path) =>
      hasPermission(wanted, path) &&
      !hasPermission(grantor.permissions, path) &&
      !(current && hasPermission(current, path)),
  );
  if (beyond.length > 0) throw new AppError("forbidden", GRANT_EXCEEDS_OWN_PERMISSIONS);
}

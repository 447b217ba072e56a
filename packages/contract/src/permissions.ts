import { z } from "zod";
import { ID_MAX_LENGTH } from "./limits";

const PROJECT_KEY = new RegExp(`^[A-Za-z0-9-]{1,${ID_MAX_LENGTH}}$`);

/**
 * A member's rights in one organization (000 §3). `owner` grants everything; otherwise each dotted path
 * must be truthy at every level. `projects` holds `all` plus one flag per project id.
 */
export const permissionsSchema = z.object({
  owner: z.boolean(),
  organization: z.object({
    general: z.boolean(),
    billing: z.boolean(),
    payments: z.boolean(),
    invoices: z.boolean(),
    playground: z.boolean(),
  }),
  members: z.object({
    invite: z.boolean(),
    edit: z.boolean(),
    delete: z.boolean(),
  }),
  apiKeys: z.object({
    create: z.boolean(),
    delete: z.boolean(),
  }),
  projects: z
    .object({ all: z.boolean() })
    .catchall(z.boolean())
    // Project ids are UUIDs; refusing other keys also keeps `__proto__` out of stored trees.
    .refine((projects) => Object.keys(projects).every((id) => PROJECT_KEY.test(id)), {
      message: "Invalid project id in permissions.",
    }),
});

export type Permissions = z.infer<typeof permissionsSchema>;

/** The dotted paths a permission check may name; `projects.<id>` names one project. */
export type PermissionPath =
  | "owner"
  | "organization.general"
  | "organization.billing"
  | "organization.payments"
  | "organization.invoices"
  | "organization.playground"
  | "members.invite"
  | "members.edit"
  | "members.delete"
  | "apiKeys.create"
  | "apiKeys.delete"
  | "projects.all"
  | `projects.${string}`;

export const PERMISSION_PATHS = [
  "organization.general",
  "organization.billing",
  "organization.payments",
  "organization.invoices",
  "organization.playground",
  "members.invite",
  "members.edit",
  "members.delete",
  "apiKeys.create",
  "apiKeys.delete",
  "projects.all",
] as const satisfies readonly PermissionPath[];

/**
 * The spec's permission check (000 §5): the owner flag grants everything; otherwise every level of the
 * dotted path must be truthy; no permissions at all gives false. Only own properties count, so a path
 * such as `projects.constructor` can never be satisfied by the object prototype.
 */
export function hasPermission(permissions: Permissions | null | undefined, path: PermissionPath): boolean {
  if (!permissions) {
    return false;
  }
  if (permissions.owner === true) {
    return true;
  }
  let node: unknown = permissions;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) {
      return false;
    }
    node = (node as Record<string, unknown>)[key];
    if (!node) {
      return false;
    }
  }
  return true;
}

/** Whether the member may use one project: owner, all projects, or that project's own flag. */
export function canAccessProject(permissions: Permissions | null | undefined, projectId: string): boolean {
  return hasPermission(permissions, "projects.all") || hasPermission(permissions, `projects.${projectId}`);
}

/** Every right on; `owner` says whether the tree also carries the owner flag. */
export function fullPermissions(owner: boolean, projectIds: readonly string[] = []): Permissions {
  return buildPermissions(true, owner, projectIds);
}

/** Every right off. */
export function emptyPermissions(projectIds: readonly string[] = []): Permissions {
  return buildPermissions(false, false, projectIds);
}

/**
 * Applies the spec's "All Projects forces every project on" rule so stored trees never contradict
 * themselves, and drops flags of projects that are not in the organization.
 */
export function normalizePermissions(permissions: Permissions, projectIds: readonly string[]): Permissions {
  const projects: Permissions["projects"] = { all: permissions.projects.all };
  for (const id of projectIds) {
    projects[id] = permissions.projects.all || permissions.projects[id] === true;
  }
  return { ...permissions, projects };
}

function buildPermissions(value: boolean, owner: boolean, projectIds: readonly string[]): Permissions {
  const projects: Permissions["projects"] = { all: value };
  for (const id of projectIds) {
    projects[id] = value;
  }
  return {
    owner,
    organization: { general: value, billing: value, payments: value, invoices: value, playground: value },
    members: { invite: value, edit: value, delete: value },
    apiKeys: { create: value, delete: value },
    projects,
  };
}

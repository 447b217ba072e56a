import type { Permissions } from "./permissions-schema";

export type { Permissions };

/** The dotted paths a permission check may name; `projects.<id>` names one project. */
export type PermissionPath =
  | "owner"
  | "organization.general"
  | "organization.billing"
  | "organization.payments"
  | "organization.invoices"
  | "organization.playground"
  | "organization.audit"
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
  "organization.audit",
  "members.invite",
  "members.edit",
  "members.delete",
  "apiKeys.create",
  "apiKeys.delete",
  "projects.all",
] as const satisfies readonly PermissionPath[];

/**
 * The spec's permission check: the owner flag grants everything; otherwise every level of the
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
    organization: {
      general: value,
      billing: value,
      payments: value,
      invoices: value,
      playground: value,
      audit: value,
    },
    members: { invite: value, edit: value, delete: value },
    apiKeys: { create: value, delete: value },
    projects,
  };
}

/** A tree holding exactly `rights` (dotted paths; `projects.all` for every project), never the owner flag. */
export function permissionsWithRights(
  rights: readonly PermissionPath[],
  projectIds: readonly string[] = [],
): Permissions {
  const permissions = emptyPermissions(projectIds);
  const tree = permissions as unknown as Record<string, Record<string, boolean>>;
  for (const right of rights) {
    const [group, flag] = right.split(".");
    const branch = group ? tree[group] : undefined;
    if (branch && flag && Object.hasOwn(branch, flag)) branch[flag] = true;
  }
  return normalizePermissions(permissions, projectIds);
}

export type RolePresetId = "admin" | "developer" | "billing" | "viewer";

export interface RolePreset {
  id: RolePresetId;
  label: string;
  /** One line under the preset's name in the permission dialog. */
  description: string;
  /** The rights the preset fills in; every other box is left empty. */
  rights: readonly PermissionPath[];
}

/**
 * Starting points of the invite and edit-permission dialog. Choosing one fills the boxes, which stay
 * editable; ownership is never part of a preset (it only moves through a transfer).
 */
export const ROLE_PRESETS: readonly RolePreset[] = [
  {
    id: "admin",
    label: "Admin",
    description: "Every right on every project, except ownership.",
    rights: PERMISSION_PATHS,
  },
  {
    id: "developer",
    label: "Developer",
    description: "The playground and API keys of every project.",
    rights: ["organization.playground", "apiKeys.create", "apiKeys.delete", "projects.all"],
  },
  {
    id: "billing",
    label: "Billing",
    description: "Billing details, payments and invoices.",
    rights: ["organization.billing", "organization.payments", "organization.invoices"],
  },
  {
    id: "viewer",
    label: "Viewer",
    description: "Sees every project's usage and keys; changes nothing.",
    rights: ["projects.all"],
  },
];

/** The preset's tree for an organization with these projects. */
export function rolePresetPermissions(preset: RolePreset, projectIds: readonly string[]): Permissions {
  return permissionsWithRights(preset.rights, projectIds);
}

/** The preset whose rights are exactly those of `permissions` (a non-owner's tree), if any. */
export function matchingRolePreset(
  permissions: Permissions,
  projectIds: readonly string[],
): RolePreset | undefined {
  if (permissions.owner) return undefined;
  return ROLE_PRESETS.find((preset) =>
    sameRights(permissions, rolePresetPermissions(preset, projectIds), projectIds),
  );
}

function sameRights(left: Permissions, right: Permissions, projectIds: readonly string[]): boolean {
  const flagsMatch = PERMISSION_PATHS.every(
    (path) => hasPermission(left, path) === hasPermission(right, path),
  );
  if (!flagsMatch) return false;
  if (left.projects.all) return true;
  return projectIds.every((id) => (left.projects[id] === true) === (right.projects[id] === true));
}

const ORGANIZATION_SUMMARY: readonly [PermissionPath, string][] = [
  ["organization.general", "General"],
  ["organization.billing", "Billing"],
  ["organization.payments", "Payments"],
  ["organization.invoices", "Invoices"],
  ["organization.playground", "Playground"],
  ["organization.audit", "Audit log"],
];
const GROUP_SUMMARY: readonly { name: string; flags: readonly [PermissionPath, string][] }[] = [
  {
    name: "Members",
    flags: [
      ["members.invite", "invite"],
      ["members.edit", "edit"],
      ["members.delete", "remove"],
    ],
  },
  {
    name: "API keys",
    flags: [
      ["apiKeys.create", "create"],
      ["apiKeys.delete", "delete"],
    ],
  },
];

/**
 * A member's rights in a few words for the members list: "Owner · all rights", "All rights", "Billing, Payments,
 * Invoices", "Playground, API keys · all projects", "Playground · 2 projects", "View only · 1 project".
 * Projects count only those of the organization (`projectIds`).
 */
export function summarizePermissions(permissions: Permissions, projectIds: readonly string[]): string {
  if (permissions.owner) return "Owner · all rights";
  if (PERMISSION_PATHS.every((path) => hasPermission(permissions, path))) return "All rights";
  const parts = ORGANIZATION_SUMMARY.filter(([path]) => hasPermission(permissions, path)).map(
    ([, label]) => label,
  );
  for (const group of GROUP_SUMMARY) {
    const held = group.flags.filter(([path]) => hasPermission(permissions, path));
    if (held.length === group.flags.length) parts.push(group.name);
    else if (held.length > 0) parts.push(`${group.name} (${held.map(([, verb]) => verb).join(", ")})`);
  }
  const projectCount = permissions.projects.all
    ? projectIds.length
    : projectIds.filter((id) => permissions.projects[id] === true).length;
  const projects = permissions.projects.all
    ? "all projects"
    : projectCount === 0
      ? ""
      : `${projectCount} ${projectCount === 1 ? "project" : "projects"}`;
  if (parts.length === 0) return projects ? `View only · ${projects}` : "No rights";
  return projects ? `${parts.join(", ")} · ${projects}` : parts.join(", ");
}

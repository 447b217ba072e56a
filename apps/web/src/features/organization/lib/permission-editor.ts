import {
  canAccessProject,
  emptyPermissions,
  fullPermissions,
  hasPermission,
  type PermissionPath,
  type Permissions,
  type RolePreset,
  rolePresetPermissions,
} from "@prism/contract";

/** The flags the "Invite Members or Permissions" dialog shows, grouped as on screen. */
export type PermissionGroupKey = "organization" | "members" | "apiKeys";

export interface PermissionToggle {
  group: PermissionGroupKey;
  /** A flag of `group`, e.g. "general" in organization. */
  key: string;
  label: string;
  /** A line under the box, for a right whose name alone does not say what it allows. */
  description?: string;
}

export const PERMISSION_GROUPS: readonly {
  key: PermissionGroupKey;
  label: string;
  toggles: readonly PermissionToggle[];
}[] = [
  {
    key: "organization",
    label: "Organization",
    toggles: [
      { group: "organization", key: "general", label: "General" },
      { group: "organization", key: "billing", label: "Billing" },
      { group: "organization", key: "payments", label: "Payments" },
      { group: "organization", key: "invoices", label: "Invoices" },
      { group: "organization", key: "playground", label: "Playground" },
      {
        group: "organization",
        key: "audit",
        label: "Audit log",
        description: "Sees every change made in the organization, and exports it.",
      },
    ],
  },
  {
    key: "members",
    label: "Members",
    toggles: [
      { group: "members", key: "invite", label: "Invite" },
      { group: "members", key: "edit", label: "Edit" },
      { group: "members", key: "delete", label: "Delete" },
    ],
  },
  {
    key: "apiKeys",
    label: "API Keys",
    toggles: [
      { group: "apiKeys", key: "create", label: "Create" },
      { group: "apiKeys", key: "delete", label: "Delete" },
    ],
  },
];

/**
 * The editor's starting tree: the member's own flags for the organization's current projects (a
 * missing project flag reads as off), never the owner flag, since ownership only moves through
 * Transfer Ownership. Invitations start with everything off.
 */
export function initialPermissions(
  permissions: Permissions | null | undefined,
  projectIds: readonly string[],
): Permissions {
  const base = emptyPermissions(projectIds);
  if (!permissions) return base;
  return withAllProjects(
    {
      owner: false,
      organization: { ...base.organization, ...permissions.organization },
      members: { ...base.members, ...permissions.members },
      apiKeys: { ...base.apiKeys, ...permissions.apiKeys },
      projects: Object.fromEntries([
        ["all", permissions.projects.all === true],
        ...projectIds.map((id) => [id, permissions.projects[id] === true]),
      ]) as Permissions["projects"],
    },
    permissions.projects.all === true,
    projectIds,
  );
}

export function setToggle(permissions: Permissions, toggle: PermissionToggle, value: boolean): Permissions {
  return {
    ...permissions,
    [toggle.group]: { ...permissions[toggle.group], [toggle.key]: value },
  };
}

/**
 * All Projects on forces every project on (and the screen locks their toggles). Turning
 * it off leaves the projects on, for the user to narrow down one by one.
 */
export function withAllProjects(
  permissions: Permissions,
  all: boolean,
  projectIds: readonly string[],
): Permissions {
  const projects: Permissions["projects"] = { ...permissions.projects, all };
  if (all) for (const id of projectIds) projects[id] = true;
  return { ...permissions, projects };
}

/** One project's toggle; ignored while All Projects holds every project on. */
export function withProject(permissions: Permissions, projectId: string, value: boolean): Permissions {
  if (permissions.projects.all) return permissions;
  return { ...permissions, projects: { ...permissions.projects, [projectId]: value } };
}

export function isProjectLocked(permissions: Permissions): boolean {
  return permissions.projects.all;
}

/** Select All: every flag on, All Projects included (the owner flag stays off). */
export function selectAll(projectIds: readonly string[]): Permissions {
  return fullPermissions(false, projectIds);
}

/** Deselect All: every flag off. */
export function deselectAll(projectIds: readonly string[]): Permissions {
  return emptyPermissions(projectIds);
}

/**
 * The boxes the acting member may change. A member grants only rights they hold (the owner holds all),
 * and the server refuses the rest, so the dialog does not offer them.
 */
export interface Grantable {
  flag(toggle: PermissionToggle): boolean;
  allProjects: boolean;
  project(projectId: string): boolean;
}

export function grantableBy(acting: Permissions | null | undefined): Grantable {
  return {
    flag: (toggle) => hasPermission(acting, `${toggle.group}.${toggle.key}` as PermissionPath),
    allProjects: hasPermission(acting, "projects.all"),
    project: (projectId) => canAccessProject(acting, projectId),
  };
}

/**
 * `next` with every box the acting member may not change left as it is in `current`: Select All,
 * Deselect All and the role presets change only what the acting member may grant.
 */
export function keepUngrantable(
  next: Permissions,
  current: Permissions,
  grantable: Grantable,
  projectIds: readonly string[],
): Permissions {
  let result: Permissions = { ...next, owner: current.owner };
  for (const group of PERMISSION_GROUPS) {
    for (const toggle of group.toggles) {
      if (!grantable.flag(toggle)) {
        result = setToggle(
          result,
          toggle,
          (current[toggle.group] as Record<string, boolean>)[toggle.key] === true,
        );
      }
    }
  }
  const all = grantable.allProjects ? result.projects.all : current.projects.all;
  const projects: Permissions["projects"] = { all };
  for (const id of projectIds) {
    const wanted = grantable.project(id) ? result.projects[id] === true : current.projects[id] === true;
    projects[id] = all || wanted;
  }
  return { ...result, projects };
}

/** A role preset applied to the editor, within what the acting member may grant. */
export function applyRolePreset(
  preset: RolePreset,
  current: Permissions,
  grantable: Grantable,
  projectIds: readonly string[],
): Permissions {
  return keepUngrantable(rolePresetPermissions(preset, projectIds), current, grantable, projectIds);
}

import { describe, expect, it } from "vitest";
import {
  canAccessProject,
  emptyPermissions,
  fullPermissions,
  hasPermission,
  matchingRolePreset,
  normalizePermissions,
  PERMISSION_PATHS,
  type Permissions,
  permissionsWithRights,
  ROLE_PRESETS,
  rolePresetPermissions,
  summarizePermissions,
} from "./permissions";
import { permissionsSchema } from "./permissions-schema";

function memberWith(change: (permissions: Permissions) => void): Permissions {
  const permissions = emptyPermissions(["p1", "p2"]);
  change(permissions);
  return permissions;
}

describe("hasPermission", () => {
  it("is false without permissions", () => {
    expect(hasPermission(undefined, "organization.general")).toBe(false);
    expect(hasPermission(null, "owner")).toBe(false);
  });

  it("lets the owner do everything, even paths the tree lacks", () => {
    const owner = fullPermissions(true);
    for (const path of PERMISSION_PATHS) {
      expect(hasPermission(owner, path)).toBe(true);
    }
    const bareOwner = { ...emptyPermissions(), owner: true };
    expect(hasPermission(bareOwner, "projects.unknown-project")).toBe(true);
  });

  it("needs every level of the path to be truthy", () => {
    const member = memberWith((p) => {
      p.organization.payments = true;
      p.projects.p1 = true;
    });
    expect(hasPermission(member, "organization.payments")).toBe(true);
    expect(hasPermission(member, "organization.billing")).toBe(false);
    expect(hasPermission(member, "projects.p1")).toBe(true);
    expect(hasPermission(member, "projects.p2")).toBe(false);
    expect(hasPermission(member, "projects.p3")).toBe(false);
    expect(hasPermission(member, "owner")).toBe(false);
  });

  it("never matches inherited properties", () => {
    const member = emptyPermissions();
    expect(hasPermission(member, "projects.constructor")).toBe(false);
    expect(hasPermission(member, "projects.__proto__")).toBe(false);
    expect(hasPermission(member, "projects.toString")).toBe(false);
  });

  it("grants every project through projects.all in canAccessProject only", () => {
    const member = memberWith((p) => {
      p.projects.all = true;
    });
    expect(hasPermission(member, "projects.p1")).toBe(false);
    expect(canAccessProject(member, "p1")).toBe(true);
    expect(canAccessProject(emptyPermissions(["p1"]), "p1")).toBe(false);
  });
});

describe("permission builders", () => {
  it("build trees the schema accepts", () => {
    expect(permissionsSchema.parse(fullPermissions(false, ["a"]))).toEqual(fullPermissions(false, ["a"]));
    expect(permissionsSchema.parse(emptyPermissions(["a"]))).toEqual(emptyPermissions(["a"]));
    expect(fullPermissions(false).owner).toBe(false);
    expect(hasPermission(fullPermissions(false), "members.delete")).toBe(true);
    expect(hasPermission(emptyPermissions(), "members.delete")).toBe(false);
  });

  it("turns every project on when All Projects is on", () => {
    const member = memberWith((p) => {
      p.projects.all = true;
      p.projects.gone = true;
    });
    const normalized = normalizePermissions(member, ["p1", "p2"]);
    expect(normalized.projects).toEqual({ all: true, p1: true, p2: true });
  });

  it("rejects non-boolean project flags", () => {
    const tree = { ...emptyPermissions(), projects: { all: false, p1: "yes" } };
    expect(permissionsSchema.safeParse(tree).success).toBe(false);
  });
});

describe("role presets", () => {
  const projectIds = ["p1", "p2"];

  it("fills exactly the preset's rights, with every project when it names projects.all", () => {
    const developer = ROLE_PRESETS.find((preset) => preset.id === "developer")!;
    const permissions = rolePresetPermissions(developer, projectIds);
    expect(permissions.owner).toBe(false);
    expect(permissions.organization).toEqual({
      general: false,
      billing: false,
      payments: false,
      invoices: false,
      playground: true,
      audit: false,
    });
    expect(permissions.apiKeys).toEqual({ create: true, delete: true });
    expect(permissions.members).toEqual({ invite: false, edit: false, delete: false });
    expect(permissions.projects).toEqual({ all: true, p1: true, p2: true });
  });

  it("makes Admin every right but ownership, and Billing no project at all", () => {
    const admin = rolePresetPermissions(ROLE_PRESETS.find((preset) => preset.id === "admin")!, projectIds);
    expect(admin).toEqual(fullPermissions(false, projectIds));
    const billing = rolePresetPermissions(
      ROLE_PRESETS.find((preset) => preset.id === "billing")!,
      projectIds,
    );
    expect(billing.projects).toEqual({ all: false, p1: false, p2: false });
    expect(billing.organization.invoices).toBe(true);
  });

  it("recognises the preset a tree matches, and none once a box is changed", () => {
    for (const preset of ROLE_PRESETS) {
      expect(matchingRolePreset(rolePresetPermissions(preset, projectIds), projectIds)?.id).toBe(preset.id);
    }
    const billing = rolePresetPermissions(
      ROLE_PRESETS.find((preset) => preset.id === "billing")!,
      projectIds,
    );
    billing.projects.p1 = true;
    expect(matchingRolePreset(billing, projectIds)).toBeUndefined();
    expect(matchingRolePreset(fullPermissions(true, projectIds), projectIds)).toBeUndefined();
  });
});

describe("summarizePermissions", () => {
  const projectIds = ["p1", "p2", "p3"];

  it("names the owner and a member with every right in one word", () => {
    expect(summarizePermissions(fullPermissions(true, projectIds), projectIds)).toBe("Owner · all rights");
    expect(summarizePermissions(fullPermissions(false, projectIds), projectIds)).toBe("All rights");
  });

  it("lists the organization rights and counts the projects", () => {
    expect(
      summarizePermissions(
        permissionsWithRights(["organization.billing", "organization.payments", "organization.invoices"]),
        projectIds,
      ),
    ).toBe("Billing, Payments, Invoices");
    expect(
      summarizePermissions(
        permissionsWithRights(["organization.playground", "projects.p1", "projects.p3"], projectIds),
        projectIds,
      ),
    ).toBe("Playground · 2 projects");
    expect(
      summarizePermissions(
        permissionsWithRights([
          "organization.playground",
          "apiKeys.create",
          "apiKeys.delete",
          "projects.all",
        ]),
        projectIds,
      ),
    ).toBe("Playground, API keys · all projects");
  });

  it("says which member and key rights a partial group holds", () => {
    expect(
      summarizePermissions(permissionsWithRights(["members.invite", "members.delete", "apiKeys.create"]), []),
    ).toBe("Members (invite, remove), API keys (create)");
  });

  it("calls a member who only sees projects view-only, and one with nothing 'No rights'", () => {
    expect(summarizePermissions(permissionsWithRights(["projects.p2"], projectIds), projectIds)).toBe(
      "View only · 1 project",
    );
    expect(summarizePermissions(emptyPermissions(projectIds), projectIds)).toBe("No rights");
  });

  it("ignores flags of projects that are not the organization's", () => {
    const permissions = emptyPermissions(projectIds);
    permissions.projects.gone = true;
    expect(summarizePermissions(permissions, projectIds)).toBe("No rights");
  });
});

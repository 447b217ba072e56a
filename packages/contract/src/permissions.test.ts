import { describe, expect, it } from "vitest";
import {
  canAccessProject,
  emptyPermissions,
  fullPermissions,
  hasPermission,
  normalizePermissions,
  PERMISSION_PATHS,
  type Permissions,
  permissionsSchema,
} from "./permissions";

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

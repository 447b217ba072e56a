import { fullPermissions, permissionsWithRights, ROLE_PRESETS, rolePresetPermissions } from "@prism/contract";
import { describe, expect, it } from "vitest";
import {
  applyRolePreset,
  deselectAll,
  grantableBy,
  initialPermissions,
  keepUngrantable,
  PERMISSION_GROUPS,
  selectAll,
  setToggle,
  withAllProjects,
  withProject,
} from "./permission-editor";

const projectIds = ["p1", "p2"];

describe("permission editor rules", () => {
  it("starts an invitation with every right off", () => {
    const tree = initialPermissions(null, projectIds);
    expect(tree.owner).toBe(false);
    expect(tree.organization.general).toBe(false);
    expect(tree.projects).toEqual({ all: false, p1: false, p2: false });
  });

  it("never carries the owner flag into the editor, and reads missing project flags as off", () => {
    const owner = { ...fullPermissions(true), projects: { all: false, p1: true } };
    const tree = initialPermissions(owner, projectIds);
    expect(tree.owner).toBe(false);
    expect(tree.members.invite).toBe(true);
    expect(tree.projects).toEqual({ all: false, p1: true, p2: false });
  });

  it("drops flags of projects the organization no longer has", () => {
    const stored = { ...deselectAll(["gone"]), projects: { all: false, gone: true, p1: true } };
    expect(initialPermissions(stored, projectIds).projects).toEqual({ all: false, p1: true, p2: false });
  });

  it("turns every project on when All Projects is switched on", () => {
    const tree = withAllProjects(initialPermissions(null, projectIds), true, projectIds);
    expect(tree.projects).toEqual({ all: true, p1: true, p2: true });
  });

  it("ignores single project toggles while All Projects is on", () => {
    const tree = withAllProjects(initialPermissions(null, projectIds), true, projectIds);
    expect(withProject(tree, "p1", false)).toBe(tree);
  });

  it("leaves the projects on when All Projects is switched off, then lets them be narrowed", () => {
    const all = withAllProjects(initialPermissions(null, projectIds), true, projectIds);
    const off = withAllProjects(all, false, projectIds);
    expect(off.projects).toEqual({ all: false, p1: true, p2: true });
    expect(withProject(off, "p1", false).projects).toEqual({ all: false, p1: false, p2: true });
  });

  it("forces every project on for a stored tree saying All Projects", () => {
    const stored = { ...deselectAll(projectIds), projects: { all: true, p1: false } };
    expect(initialPermissions(stored, projectIds).projects).toEqual({ all: true, p1: true, p2: true });
  });

  it("Select All turns every flag on except ownership; Deselect All turns every flag off", () => {
    const all = selectAll(projectIds);
    expect(all.owner).toBe(false);
    for (const group of PERMISSION_GROUPS)
      for (const toggle of group.toggles)
        expect((all[toggle.group] as Record<string, boolean>)[toggle.key]).toBe(true);
    expect(all.projects).toEqual({ all: true, p1: true, p2: true });

    const none = deselectAll(projectIds);
    for (const group of PERMISSION_GROUPS)
      for (const toggle of group.toggles)
        expect((none[toggle.group] as Record<string, boolean>)[toggle.key]).toBe(false);
    expect(none.projects).toEqual({ all: false, p1: false, p2: false });
  });

  it("sets one flag without touching the others", () => {
    const tree = setToggle(initialPermissions(null, projectIds), PERMISSION_GROUPS[1]!.toggles[0]!, true);
    expect(tree.members).toEqual({ invite: true, edit: false, delete: false });
    expect(tree.organization.general).toBe(false);
  });
});

describe("what the acting member may grant", () => {
  const developer = ROLE_PRESETS.find((preset) => preset.id === "developer")!;

  it("lets the owner grant every box", () => {
    const grantable = grantableBy(fullPermissions(true));
    for (const group of PERMISSION_GROUPS) {
      for (const toggle of group.toggles) expect(grantable.flag(toggle)).toBe(true);
    }
    expect(grantable.allProjects).toBe(true);
    expect(grantable.project("p2")).toBe(true);
  });

  it("offers a member only the rights and projects they hold", () => {
    const acting = permissionsWithRights(
      ["members.invite", "organization.playground", "projects.p1"],
      projectIds,
    );
    const grantable = grantableBy(acting);
    const toggle = (key: string) =>
      PERMISSION_GROUPS.flatMap((group) => group.toggles).find(
        (candidate) => `${candidate.group}.${candidate.key}` === key,
      )!;
    expect(grantable.flag(toggle("organization.playground"))).toBe(true);
    expect(grantable.flag(toggle("members.invite"))).toBe(true);
    expect(grantable.flag(toggle("organization.payments"))).toBe(false);
    expect(grantable.flag(toggle("apiKeys.create"))).toBe(false);
    expect(grantable.allProjects).toBe(false);
    expect(grantable.project("p1")).toBe(true);
    expect(grantable.project("p2")).toBe(false);
  });

  it("keeps Select All and presets within the acting member's rights, and the member's other rights as they were", () => {
    const acting = permissionsWithRights(
      ["members.edit", "organization.playground", "projects.p1"],
      projectIds,
    );
    const current = permissionsWithRights(["organization.payments"], projectIds);
    const grantable = grantableBy(acting);

    const all = keepUngrantable(selectAll(projectIds), current, grantable, projectIds);
    expect(all.organization).toEqual({
      general: false,
      billing: false,
      payments: true,
      invoices: false,
      playground: true,
      audit: false,
    });
    expect(all.members).toEqual({ invite: false, edit: true, delete: false });
    expect(all.projects).toEqual({ all: false, p1: true, p2: false });

    const none = keepUngrantable(deselectAll(projectIds), current, grantable, projectIds);
    expect(none.organization.payments).toBe(true);
    expect(none.organization.playground).toBe(false);

    const preset = applyRolePreset(developer, current, grantable, projectIds);
    expect(preset.organization.playground).toBe(true);
    expect(preset.organization.payments).toBe(true);
    expect(preset.apiKeys).toEqual({ create: false, delete: false });
    expect(preset.projects).toEqual({ all: false, p1: true, p2: false });
  });

  it("applies a preset in full for the owner", () => {
    const preset = applyRolePreset(
      developer,
      deselectAll(projectIds),
      grantableBy(fullPermissions(true)),
      projectIds,
    );
    expect(preset).toEqual(rolePresetPermissions(developer, projectIds));
  });
});

import { fullPermissions } from "@prism/contract";
import { describe, expect, it } from "vitest";
import {
  deselectAll,
  initialPermissions,
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

import type { Organization, UserInfo } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { resolveSelection } from "./selection";

function organization(id: string, projectIds: string[]): Organization {
  return {
    id,
    name: `Org ${id}`,
    balance: 0,
    permissions: { owner: true },
    projects: projectIds.map((projectId) => ({
      id: projectId,
      name: `Project ${projectId}`,
      organizationId: id,
    })),
  } as Organization;
}

function user(organizations: Organization[]): UserInfo {
  return {
    id: "u1",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    creationDate: "2026-01-01T00:00:00Z",
    organizations,
  } as UserInfo;
}

const ids = (selection: ReturnType<typeof resolveSelection>) => [
  selection.organization?.id ?? null,
  selection.project?.id ?? null,
];

describe("resolveSelection", () => {
  const userInfo = user([
    organization("o1", ["p1", "p2"]),
    organization("o2", ["p3", "p4"]),
    organization("o3", []),
  ]);

  it("uses the requested organization and project when they belong to the user", () => {
    expect(ids(resolveSelection(userInfo, { organizationId: "o2", projectId: "p4" }))).toEqual(["o2", "p4"]);
  });

  it("falls back to the first organization and its first project", () => {
    expect(ids(resolveSelection(userInfo, { organizationId: null, projectId: null }))).toEqual(["o1", "p1"]);
    expect(ids(resolveSelection(userInfo, { organizationId: "foreign", projectId: "p4" }))).toEqual([
      "o1",
      "p1",
    ]);
  });

  it("takes the project only from the selected organization", () => {
    expect(ids(resolveSelection(userInfo, { organizationId: "o2", projectId: "p1" }))).toEqual(["o2", "p3"]);
  });

  it("selects no project in an organization without projects", () => {
    expect(ids(resolveSelection(userInfo, { organizationId: "o3", projectId: "p1" }))).toEqual(["o3", null]);
  });

  it("selects nothing without a user or organizations", () => {
    expect(ids(resolveSelection(null, { organizationId: "o1", projectId: "p1" }))).toEqual([null, null]);
    expect(ids(resolveSelection(user([]), { organizationId: "o1", projectId: "p1" }))).toEqual([null, null]);
  });
});

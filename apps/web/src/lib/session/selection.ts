import type { Organization, Project, UserInfo } from "@prism/contract";

/** The ids the user asked for (a click, or the cookies read at start-up); either may be stale. */
export interface RequestedSelection {
  organizationId: string | null;
  projectId: string | null;
}

export interface ResolvedSelection {
  organization: Organization | null;
  project: Project | null;
}

/**
 * The requested organization if it is among the user's organizations, else
 * the first, else none; the project likewise from that organization's projects. Because the request
 * starts as the cookie values, one rule covers start-up, archiving, leaving and switching users.
 */
export function resolveSelection(
  userInfo: UserInfo | null | undefined,
  requested: RequestedSelection,
): ResolvedSelection {
  const organizations = userInfo?.organizations ?? [];
  const organization =
    organizations.find((candidate) => candidate.id === requested.organizationId) ?? organizations[0] ?? null;
  const projects = organization?.projects ?? [];
  const project = projects.find((candidate) => candidate.id === requested.projectId) ?? projects[0] ?? null;
  return { organization, project };
}

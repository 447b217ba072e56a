import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const membersQueryKey = (organizationId: string) =>
  ["organizations", organizationId, "members"] as const;

export function getMembers(organizationId: string, signal?: AbortSignal) {
  return api.members.list({ organizationId }, { signal });
}

/** Members, pending invitations and the organization's projects (for the permission toggles). */
export function membersQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: membersQueryKey(organizationId),
    queryFn: ({ signal }) => getMembers(organizationId, signal),
  });
}

export function useMembers(organizationId: string) {
  return useQuery(membersQueryOptions(organizationId));
}

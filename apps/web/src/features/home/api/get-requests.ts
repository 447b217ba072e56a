import type { ListRequestsRequest } from "@prism/contract";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { cursorField, cursorPaging } from "../../../lib/cursor-paging";

/** The Requests view's filters; absent fields list everything. */
export type RequestFilters = Pick<ListRequestsRequest, "endpoint" | "apiKeyId" | "status" | "from" | "to">;

export const requestsQueryKey = (
  organizationId: string,
  projectIds: readonly string[],
  filters: RequestFilters,
) => ["requests", organizationId, projectIds, filters] as const;

/** The calls of the projects newest first, one keyset page after another (`nextCursor`). */
export function requestsQueryOptions(
  organizationId: string,
  projectIds: readonly string[],
  filters: RequestFilters,
) {
  return infiniteQueryOptions({
    queryKey: requestsQueryKey(organizationId, projectIds, filters),
    queryFn: ({ pageParam, signal }) =>
      api.requests.list(
        {
          organizationId,
          projectIds: [...projectIds],
          ...filters,
          ...cursorField(pageParam),
        },
        { signal },
      ),
    ...cursorPaging,
    enabled: projectIds.length > 0,
    retry: false,
  });
}

export function useRequests(organizationId: string, projectIds: readonly string[], filters: RequestFilters) {
  return useInfiniteQuery(requestsQueryOptions(organizationId, projectIds, filters));
}

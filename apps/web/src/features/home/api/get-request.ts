import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const requestDetailQueryKey = (organizationId: string, requestId: string) =>
  ["request", organizationId, requestId] as const;

/** One call of the Requests view with everything it was sent and answered. */
export function requestDetailQueryOptions(organizationId: string, requestId: string | null) {
  return queryOptions({
    queryKey: requestDetailQueryKey(organizationId, requestId ?? ""),
    queryFn: ({ signal }) =>
      api.requests
        .get({ organizationId, requestId: requestId ?? "" }, { signal })
        .then((answer) => answer.request),
    enabled: requestId !== null && organizationId !== "",
    retry: false,
  });
}

export function useRequestDetail(organizationId: string, requestId: string | null) {
  return useQuery(requestDetailQueryOptions(organizationId, requestId));
}

import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const apiKeysQueryKey = (projectId: string) => ["projects", projectId, "api-keys"] as const;

export function getApiKeys(projectId: string, signal?: AbortSignal) {
  return api.apiKeys.list({ projectId }, { signal });
}

export function apiKeysQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: apiKeysQueryKey(projectId),
    queryFn: ({ signal }) => getApiKeys(projectId, signal),
    select: (answer) => answer.apiKeys,
  });
}

export function useApiKeys(projectId: string) {
  return useQuery(apiKeysQueryOptions(projectId));
}

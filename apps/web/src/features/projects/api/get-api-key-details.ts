import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const apiKeyDetailsQueryKey = (projectId: string, apiKeyId: string) =>
  ["projects", projectId, "api-keys", apiKeyId, "details"] as const;

export function getApiKeyDetails(projectId: string, apiKeyId: string, signal?: AbortSignal) {
  return api.apiKeys.details({ projectId, apiKeyId }, { signal });
}

export function apiKeyDetailsQueryOptions(projectId: string, apiKeyId: string) {
  return queryOptions({
    queryKey: apiKeyDetailsQueryKey(projectId, apiKeyId),
    queryFn: ({ signal }) => getApiKeyDetails(projectId, apiKeyId, signal),
  });
}

/** A key's spend and last calls, for its detail drawer (loaded while the drawer is open). */
export function useApiKeyDetails(projectId: string, apiKeyId: string | null) {
  return useQuery({
    ...apiKeyDetailsQueryOptions(projectId, apiKeyId ?? ""),
    enabled: apiKeyId !== null,
  });
}

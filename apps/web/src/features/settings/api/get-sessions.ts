import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const sessionsQueryKey = ["account", "sessions"] as const;

export function getSessions(signal?: AbortSignal) {
  return api.sessions.list({}, { signal });
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: ({ signal }) => getSessions(signal),
    select: (answer) => answer.sessions,
  });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

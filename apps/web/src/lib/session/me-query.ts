import type { UserInfo } from "@prism/contract";
import { queryOptions } from "@tanstack/react-query";
import { api, isApiError } from "../api-client";

export const ME_QUERY_KEY = ["users", "me"] as const;

/**
 * The signed-in user (users/me). At start-up any failure means signed out (the stored session cannot be
 * checked), so the query resolves to null. Once signed in, only a 401 ends the session: a timeout or a
 * network failure while refreshing rejects instead, and TanStack Query keeps the user it has, so a slow
 * answer after accepting an invitation or saving one's own rights never signs anybody out.
 */
export const meQueryOptions = queryOptions({
  queryKey: ME_QUERY_KEY,
  queryFn: async ({ signal, client }): Promise<UserInfo | null> => {
    try {
      return await api.users.me({}, { signal });
    } catch (error) {
      if (isApiError(error) && error.status === 401) return null;
      if (client.getQueryData<UserInfo | null>(ME_QUERY_KEY)) throw error;
      return null;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
  refetchOnWindowFocus: false,
});

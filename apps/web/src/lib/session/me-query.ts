import type { UserInfo } from "@prism/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../api-client";

export const ME_QUERY_KEY = ["users", "me"] as const;

/**
 * Start-up check of spec 000 §4: the stored session is valid when users/me answers. Any failure
 * (401, network, timeout) means signed out, so the query resolves to null instead of erroring.
 */
export const meQueryOptions = queryOptions({
  queryKey: ME_QUERY_KEY,
  queryFn: async ({ signal }): Promise<UserInfo | null> => {
    try {
      return await api.users.me({}, { signal });
    } catch {
      return null;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
  refetchOnWindowFocus: false,
});

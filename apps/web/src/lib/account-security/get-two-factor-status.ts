import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../api-client";

export const twoFactorStatusQueryKey = ["account", "two-factor"] as const;

export function getTwoFactorStatus(signal?: AbortSignal) {
  return api.twoFactor.status({}, { signal });
}

export function twoFactorStatusQueryOptions() {
  return queryOptions({
    queryKey: twoFactorStatusQueryKey,
    queryFn: ({ signal }) => getTwoFactorStatus(signal),
  });
}

export function useTwoFactorStatus(enabled = true) {
  return useQuery({ ...twoFactorStatusQueryOptions(), enabled });
}

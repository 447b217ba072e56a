import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../api-client";

export const passkeysQueryKey = ["account", "passkeys"] as const;

export function getPasskeys(signal?: AbortSignal) {
  return api.passkeys.list({}, { signal });
}

export function passkeysQueryOptions() {
  return queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: ({ signal }) => getPasskeys(signal),
    select: (answer) => answer.passkeys,
  });
}

export function usePasskeys(enabled = true) {
  return useQuery({ ...passkeysQueryOptions(), enabled });
}

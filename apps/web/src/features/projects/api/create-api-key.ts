import type { InsertApiKeyRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { apiKeysQueryKey } from "./get-api-keys";

export function createApiKey(input: InsertApiKeyRequest) {
  return api.apiKeys.insert(input);
}

/** Creates a key; the answer carries its secret `content`, which is shown once and never stored. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(input.projectId) }),
  });
}

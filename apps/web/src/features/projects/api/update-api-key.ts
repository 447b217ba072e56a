import type { UpdateApiKeyRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { apiKeyDetailsQueryKey } from "./get-api-key-details";
import { apiKeysQueryKey } from "./get-api-keys";

export function updateApiKey(input: UpdateApiKeyRequest) {
  return api.apiKeys.update(input);
}

/** Saves a key's name and limits from the key dialog; the list and the key's details are reloaded. */
export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApiKey,
    onSuccess: async (_answer, input) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(input.projectId) }),
        queryClient.invalidateQueries({ queryKey: apiKeyDetailsQueryKey(input.projectId, input.apiKeyId) }),
      ]);
    },
  });
}

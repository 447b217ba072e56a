import type { ListApiKeysResponse, UpdateApiKeyRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { apiKeysQueryKey } from "./get-api-keys";

export function renameApiKey(input: UpdateApiKeyRequest) {
  return api.apiKeys.update(input);
}

/** Renames a key and writes the new name into the cached list. */
export function useRenameApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameApiKey,
    onSuccess: (_answer, input) =>
      queryClient.setQueryData<ListApiKeysResponse>(apiKeysQueryKey(input.projectId), (current) =>
        current
          ? {
              apiKeys: current.apiKeys.map((apiKey) =>
                apiKey.id === input.apiKeyId ? { ...apiKey, name: input.apiKeyName } : apiKey,
              ),
            }
          : current,
      ),
  });
}

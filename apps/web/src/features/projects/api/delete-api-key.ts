import type { DeleteApiKeyRequest, ListApiKeysResponse } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { apiKeysQueryKey } from "./get-api-keys";

export function deleteApiKey(input: DeleteApiKeyRequest) {
  return api.apiKeys.delete(input);
}

/** A deleted key leaves the list once the server has confirmed. */
export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: (_answer, input) =>
      queryClient.setQueryData<ListApiKeysResponse>(apiKeysQueryKey(input.projectId), (current) =>
        current ? { apiKeys: current.apiKeys.filter((apiKey) => apiKey.id !== input.apiKeyId) } : current,
      ),
  });
}

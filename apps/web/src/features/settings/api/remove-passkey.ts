import type { CallRequest, ListPasskeysResponse, removePasskeyCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { passkeysQueryKey } from "../../../lib/account-security/get-passkeys";
import { api } from "../../../lib/api-client";

export function removePasskey(input: CallRequest<typeof removePasskeyCall>) {
  return api.passkeys.remove(input);
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSuccess: (_answer, input) =>
      queryClient.setQueryData<ListPasskeysResponse>(passkeysQueryKey, (current) =>
        current
          ? { passkeys: current.passkeys.filter((passkey) => passkey.id !== input.passkeyId) }
          : current,
      ),
  });
}

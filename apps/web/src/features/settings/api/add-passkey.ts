import type { ListPasskeysResponse } from "@prism/contract";
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { passkeysQueryKey } from "../../../lib/account-security/get-passkeys";
import { api } from "../../../lib/api-client";

/**
 * The whole ceremony: the server's options, the browser's authenticator (which asks the user), then
 * the server checks and keeps the new passkey under `name`.
 */
export async function addPasskey(name: string) {
  const { options } = await api.passkeys.registrationOptions({});
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return api.passkeys.register({ name, response: { ...response } });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: ({ passkey }) =>
      queryClient.setQueryData<ListPasskeysResponse>(passkeysQueryKey, (current) =>
        current ? { passkeys: [...current.passkeys, passkey] } : current,
      ),
  });
}

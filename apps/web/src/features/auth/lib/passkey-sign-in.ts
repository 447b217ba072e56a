import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from "@simplewebauthn/browser";
import { api } from "../../../lib/api-client";

/**
 * Signs in with a discoverable passkey: the server's challenge, the browser's passkey prompt (the user
 * picks an account), then the server checks the signature and starts the session. A passkey is both
 * factors, so no code step follows.
 */
export async function signInWithPasskey(rememberMe: boolean) {
  const { options } = await api.passkeys.authenticationOptions({});
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.passkeys.signIn({ response: { ...response }, rememberMe });
}

import {
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { api } from "../../../lib/api-client";

/**
 * Signs in with a discoverable passkey: the server's challenge, the browser's passkey prompt (the user
 * picks an account), then the server checks the signature and starts the session. A passkey is both
 * factors, so no code step follows. With `autofill`, the prompt is the Email field's autofill list.
 */
export async function signInWithPasskey(rememberMe: boolean, options: { autofill?: boolean } = {}) {
  const answer = await api.passkeys.authenticationOptions({});
  const response = await startAuthentication({
    optionsJSON: answer.options as unknown as PublicKeyCredentialRequestOptionsJSON,
    // Conditional UI: the request waits quietly until the user picks a passkey in the Email field's
    // autofill. Any later ceremony (the button) cancels it.
    useBrowserAutofill: options.autofill === true,
  });
  return api.passkeys.signIn({ response: { ...response }, rememberMe });
}

/** Ends a waiting autofill request (the sign-in form is leaving the screen). */
export function cancelPasskeyAutofill(): void {
  WebAuthnAbortService.cancelCeremony();
}

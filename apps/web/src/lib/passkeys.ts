/**
 * The user closed the browser's passkey prompt (or it timed out): WebAuthn reports it as
 * NotAllowedError. That is a choice, not a failure worth a message.
 */
export function isPasskeyPromptClosed(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");
}

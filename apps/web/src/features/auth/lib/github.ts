import type { PublicConfig } from "@prism/contract";
import { PATHS } from "../../../lib/paths";

/** Where /login picks up a GitHub sign-in that came back through the callback route. */
export const PENDING_GITHUB_CODE_KEY = "pendingGithubSignInCode";
/** Set by the callback when GitHub's answer cannot be trusted (state mismatch): /login reports it. */
export const PENDING_GITHUB_ERROR_KEY = "pendingGithubSignInError";
/** The anti-forgery value sent to GitHub and expected back on the callback (RFC 6749 §10.12). */
export const GITHUB_STATE_KEY = "githubSignInState";

function randomState(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** GitHub's authorize address for this console; remembers a fresh state for the callback to check. */
export function githubAuthorizeUrl(github: NonNullable<PublicConfig["github"]>, origin: string): string {
  const state = randomState();
  sessionStorage.setItem(GITHUB_STATE_KEY, state);
  const url = new URL(github.authorizeUrl);
  url.searchParams.set("client_id", github.clientId);
  url.searchParams.set("scope", "user:email");
  url.searchParams.set("redirect_uri", `${origin}${PATHS.githubCallback}`);
  url.searchParams.set("state", state);
  return url.toString();
}

/**
 * The callback's half: keeps the code as the pending attempt when the state matches the
 * one this tab sent; a missing or foreign state marks the attempt failed instead. The state is single
 * use either way.
 */
export function acceptGithubCallback(search: URLSearchParams): void {
  const code = search.get("code");
  const expectedState = sessionStorage.getItem(GITHUB_STATE_KEY);
  sessionStorage.removeItem(GITHUB_STATE_KEY);
  if (!code) return;
  if (!expectedState || search.get("state") !== expectedState) {
    sessionStorage.setItem(PENDING_GITHUB_ERROR_KEY, "state-mismatch");
    return;
  }
  sessionStorage.setItem(PENDING_GITHUB_CODE_KEY, code);
}

/** Takes the pending attempt (once): a code to send, an error to show, or nothing. */
export function takePendingGithubSignIn(): { code: string } | { error: true } | null {
  const code = sessionStorage.getItem(PENDING_GITHUB_CODE_KEY);
  const error = sessionStorage.getItem(PENDING_GITHUB_ERROR_KEY);
  sessionStorage.removeItem(PENDING_GITHUB_CODE_KEY);
  sessionStorage.removeItem(PENDING_GITHUB_ERROR_KEY);
  if (code) return { code };
  if (error) return { error: true };
  return null;
}

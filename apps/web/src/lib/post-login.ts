import { COOKIE, readCookie, writeCookie } from "./cookies";
import { PATHS } from "./paths";

/** The query parameter of invitation links. */
export const INVITATION_PARAM = "invitation";

/**
 * An invitation link that reaches /login is kept in the invitationId cookie before
 * anything else happens, so it survives sign-up, e-mail verification and third-party sign-in.
 * Returns whether the search string carried one.
 */
export function storeInvitationFromSearch(search: URLSearchParams): boolean {
  const invitationId = search.get(INVITATION_PARAM)?.trim();
  if (!invitationId) return false;
  writeCookie(COOKIE.invitationId, invitationId);
  return true;
}

// Session storage rather than history state: the page asked for must survive the GitHub round trip
// and a reload of /login, and must not outlive the tab.
const RETURN_PATH_KEY = "returnPathAfterSignIn";

/** Only a path of this console: never another origin ("//evil.example") nor the login pages. */
function isConsolePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return false;
  const pathname = path.split(/[?#]/, 1)[0] ?? "";
  return pathname !== PATHS.login && pathname !== PATHS.githubCallback;
}

/** Remembers the page a signed-out visitor asked for, to return there after signing in. */
export function rememberReturnPath(location: { pathname: string; search: string; hash: string }): void {
  const path = `${location.pathname}${location.search}${location.hash}`;
  if (isConsolePath(path)) sessionStorage.setItem(RETURN_PATH_KEY, path);
}

/** Called once the user is inside the console: the remembered page has been reached (or overruled). */
export function forgetReturnPath(): void {
  sessionStorage.removeItem(RETURN_PATH_KEY);
}

function rememberedReturnPath(): string | null {
  const path = sessionStorage.getItem(RETURN_PATH_KEY);
  return path && isConsolePath(path) ? path : null;
}

/**
 * Where a user lands after signing in: the members page while an invitation waits, else
 * the page they asked for before signing in, else home.
 */
export function postLoginPath(): string {
  if (readCookie(COOKIE.invitationId)) return PATHS.organizationMembers;
  return rememberedReturnPath() ?? PATHS.home;
}

/**
 * History state asking /login to show the form to a user who is already signed in (after "Error
 * Checking Invitations", the spec leads to /login whoever is signed in): the login guard lets them
 * stay, and signing in again moves on.
 */
export const SIGN_IN_AGAIN_STATE = { signInAgain: true } as const;

export function isSignInAgain(state: unknown): boolean {
  return (
    typeof state === "object" && state !== null && (state as { signInAgain?: unknown }).signInAgain === true
  );
}

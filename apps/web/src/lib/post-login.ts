import { COOKIE, readCookie, writeCookie } from "./cookies";
import { PATHS } from "./paths";

/** The query parameter of invitation links (spec 000 §2). */
export const INVITATION_PARAM = "invitation";

/**
 * Spec 000 §2: an invitation link that reaches /login is kept in the invitationId cookie before
 * anything else happens, so it survives sign-up, e-mail verification and third-party sign-in.
 * Returns whether the search string carried one.
 */
export function storeInvitationFromSearch(search: URLSearchParams): boolean {
  const invitationId = search.get(INVITATION_PARAM)?.trim();
  if (!invitationId) return false;
  writeCookie(COOKIE.invitationId, invitationId);
  return true;
}

/** Where a user lands after signing in: the members page while an invitation waits, else home. */
export function postLoginPath(): string {
  return readCookie(COOKIE.invitationId) ? PATHS.organizationMembers : PATHS.home;
}

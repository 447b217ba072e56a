import { Text } from "@mantine/core";
import { ERROR_DIALOGS, INVITATION_CONFIRMED, JOIN_ORGANIZATION_TITLE } from "@prism/contract";
import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal, openInfoModal } from "../../../components/overlays/modals";
import { COOKIE, readCookie, writeCookie } from "../../../lib/cookies";
import { escapeHtml } from "../../../lib/html";
import { setAnsweringInvitation } from "../../../lib/invitation-progress";
import { PATHS } from "../../../lib/paths";
import { INVITATION_PARAM, SIGN_IN_AGAIN_STATE } from "../../../lib/post-login";
import { useSession } from "../../../lib/session";
import { checkInvitation, confirmInvitation } from "../api/invitations";

/**
 * The invitation flow, run by the members page when an invitation link (the `invitation`
 * query parameter) or a stored invitation (the invitationId cookie, kept across sign-in) is present:
 * check it; invalid → error dialog; somebody else's → keep it in the cookie, sign out, /login;
 * otherwise ask "Join Organization" and confirm or decline. While it runs the shell holds back the
 * welcome popup, so an invitee is not told to pay for an organization they are about to leave behind.
 */
export function useInvitationFlow(): void {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { refreshUserInfo, selectOrganization, logout } = useSession();
  const invitationId = search.get(INVITATION_PARAM)?.trim() || readCookie(COOKIE.invitationId);
  // One run per invitation, also under StrictMode's double effects and re-renders while dialogs are open.
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!invitationId || handled.current === invitationId) return;
    handled.current = invitationId;

    const answer = async () => {
      // The invitation is consumed now, whatever the outcome, so a reload never asks twice.
      writeCookie(COOKIE.invitationId, null);
      navigate(PATHS.organizationMembers, { replace: true });

      let check: Awaited<ReturnType<typeof checkInvitation>>;
      try {
        check = await withLoading(() => checkInvitation(invitationId));
      } catch {
        await openInfoModal({
          title: ERROR_DIALOGS.checkInvitations.title,
          html: ERROR_DIALOGS.checkInvitations.message,
        });
        // The spec leads to /login, also for a signed-in user (the link may be another account's). The
        // invitation waits in its cookie again, so the next sign-in tries it once more.
        writeCookie(COOKIE.invitationId, invitationId);
        navigate(PATHS.login, { replace: true, state: SIGN_IN_AGAIN_STATE });
        return;
      }
      if (!check.valid) {
        await openInfoModal({
          title: ERROR_DIALOGS.invalidInvitation.title,
          html: ERROR_DIALOGS.invalidInvitation.message,
        });
        return;
      }
      if (check.shouldLogOut) {
        // The link was mailed to somebody else: sign out and let them sign in, keeping the invitation.
        await logout();
        writeCookie(COOKIE.invitationId, invitationId);
        return;
      }

      const organizationName = check.organizationName ?? "the organization";
      const accepted = await openConfirmModal({
        title: JOIN_ORGANIZATION_TITLE,
        message: (
          <Text size="sm">
            You have been invited to join <b>{organizationName}</b>. Would you like to join this organization?
          </Text>
        ),
      });
      try {
        const { organizationId } = await withLoading(() => confirmInvitation(invitationId, accepted));
        if (!accepted) {
          // A newcomer who signed up from the invitation is given an organization of their own now.
          await withLoading(() => refreshUserInfo());
          return;
        }
        await withLoading(() => refreshUserInfo());
        selectOrganization(organizationId);
        navigate(PATHS.organizationMembers, { replace: true });
        await openInfoModal({
          title: INVITATION_CONFIRMED,
          html: `<p>You are now a member of <b>${escapeHtml(organizationName)}</b>.</p>`,
        });
      } catch (error) {
        // A failed decline leaves nothing for the user to do: the invitation simply stays pending.
        if (accepted) await showErrorDialog(ERROR_DIALOGS.invitationConfirmationFailed, error);
      }
    };
    const run = async () => {
      setAnsweringInvitation(true);
      try {
        await answer();
      } finally {
        setAnsweringInvitation(false);
      }
    };
    void run();
  }, [invitationId, navigate, refreshUserInfo, selectOrganization, logout]);
}

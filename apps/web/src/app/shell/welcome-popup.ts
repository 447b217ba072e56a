import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { openWelcomeModal } from "../../components/overlays/modals";
import { COOKIE, readCookie } from "../../lib/cookies";
import { parseUtcTimestamp } from "../../lib/format";
import { useAnsweringInvitation } from "../../lib/invitation-progress";
import { canInOrganization } from "../../lib/permissions";
import { INVITATION_PARAM } from "../../lib/post-login";
import { useSession } from "../../lib/session";

export const WELCOME_SEEN_KEY = "welcomePopupSeen";

function isToday(date: Date, now: Date): boolean {
  return (
    date.getFullYear() === now.getFullYear() &&
    date.getMonth() === now.getMonth() &&
    date.getDate() === now.getDate()
  );
}

/**
 * The welcome dialog appears once, for a user created today whose organization balance is
 * 0, and is then marked seen in local storage. Its button leads to the payments page, so it waits while
 * an invitation is pending or being answered (the invitee is about to switch organizations) and is kept
 * for organizations where the user may add a card.
 */
export function useWelcomePopup(): void {
  const { userInfo, selectedOrganization } = useSession();
  const [search] = useSearchParams();
  const answeringInvitation = useAnsweringInvitation();
  const creationDate = userInfo?.creationDate;
  const balance = selectedOrganization?.balance;
  const canPay = canInOrganization(selectedOrganization, "organization.payments");
  const invitationPending =
    answeringInvitation || search.has(INVITATION_PARAM) || readCookie(COOKIE.invitationId) !== null;

  useEffect(() => {
    if (creationDate === undefined || balance === undefined || invitationPending || !canPay) return;
    if (localStorage.getItem(WELCOME_SEEN_KEY) === "true") return;
    if (balance !== 0 || !isToday(parseUtcTimestamp(creationDate), new Date())) return;
    localStorage.setItem(WELCOME_SEEN_KEY, "true");
    void openWelcomeModal();
  }, [creationDate, balance, invitationPending, canPay]);
}

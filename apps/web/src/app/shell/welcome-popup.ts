import { useEffect } from "react";
import { openWelcomeModal } from "../../components/overlays/modals";
import { parseUtcTimestamp } from "../../lib/format";
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
 * Spec 000 §4: the welcome dialog appears once, for a user created today whose organization balance is
 * 0, and is then marked seen in local storage.
 */
export function useWelcomePopup(): void {
  const { userInfo, selectedOrganization } = useSession();
  const creationDate = userInfo?.creationDate;
  const balance = selectedOrganization?.balance;

  useEffect(() => {
    if (creationDate === undefined || balance === undefined) return;
    if (localStorage.getItem(WELCOME_SEEN_KEY) === "true") return;
    if (balance !== 0 || !isToday(parseUtcTimestamp(creationDate), new Date())) return;
    localStorage.setItem(WELCOME_SEEN_KEY, "true");
    void openWelcomeModal();
  }, [creationDate, balance]);
}

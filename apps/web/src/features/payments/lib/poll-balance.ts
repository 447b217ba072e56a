import { BALANCE_POLL_ATTEMPTS, BALANCE_POLL_INTERVAL_MS, type UserInfo } from "@prism/contract";

export interface BalancePollOptions {
  organizationId: string;
  previousBalance: number;
  readUser: () => Promise<UserInfo>;
  attempts?: number;
  intervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Recharge: after the charge, re-read the user up to 5 times, 2 s apart, until the
 * organization's balance differs from the one before the charge. Resolves the user that shows the
 * new balance, or null when it never moved. A failed read counts as a try and is otherwise ignored:
 * the charge already went through.
 */
export async function pollForBalanceChange({
  organizationId,
  previousBalance,
  readUser,
  attempts = BALANCE_POLL_ATTEMPTS,
  intervalMs = BALANCE_POLL_INTERVAL_MS,
  sleep = wait,
}: BalancePollOptions): Promise<UserInfo | null> {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    if (attempt > 1) await sleep(intervalMs);
    try {
      const user = await readUser();
      const organization = user.organizations.find((candidate) => candidate.id === organizationId);
      if (organization && organization.balance !== previousBalance) return user;
    } catch {
      // Try again after the interval.
    }
  }
  return null;
}

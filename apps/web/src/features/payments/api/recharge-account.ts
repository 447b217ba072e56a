import type { RechargeAccountRequest } from "@prism/contract";
import { useCallback } from "react";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { pollForBalanceChange } from "../lib/poll-balance";

export function rechargeAccount(input: RechargeAccountRequest) {
  return api.payments.rechargeAccount(input);
}

export type RechargeOutcome = "credited" | "pending";

/**
 * Charges the saved card, then follows the spec: poll users/me until the balance moves, store the
 * new balance (the top bar follows the cache) and clear isNew. "pending" means the charge succeeded
 * but the balance had not moved after the last try; the user is reloaded once more in the background.
 * A failed charge rejects with the server's error.
 */
export function useRechargeAccount() {
  const { updateUserInfo, refreshUserInfo } = useSession();
  return useCallback(
    async ({
      organizationId,
      amount,
      previousBalance,
    }: RechargeAccountRequest & { previousBalance: number }) => {
      await rechargeAccount({ organizationId, amount });
      const fresh = await pollForBalanceChange({
        organizationId,
        previousBalance,
        readUser: () => api.users.me({}),
      });
      const credited = fresh?.organizations.find((organization) => organization.id === organizationId);
      if (!credited) {
        void refreshUserInfo();
        return "pending" satisfies RechargeOutcome;
      }
      updateUserInfo((current) => ({
        ...current,
        organizations: current.organizations.map((organization) =>
          organization.id === organizationId
            ? {
                ...organization,
                balance: credited.balance,
                properties: { ...organization.properties, isNew: false },
              }
            : organization,
        ),
      }));
      return "credited" satisfies RechargeOutcome;
    },
    [updateUserInfo, refreshUserInfo],
  );
}

import type { CallRequest, twoFactorEnableCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { twoFactorStatusQueryKey } from "../../../lib/account-security/get-two-factor-status";
import { api } from "../../../lib/api-client";
import { sessionsQueryKey } from "./get-sessions";

export function enableTwoFactor(input: CallRequest<typeof twoFactorEnableCall>) {
  return api.twoFactor.enable(input);
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => {
      // Enabling signed out every other device, so the devices list changed too. Not awaited: the
      // screen's own onSuccess (which shows the recovery codes) must run in the same update as the new
      // status, before the enrolment form gives way to the "on" view.
      void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
      return queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey });
    },
  });
}

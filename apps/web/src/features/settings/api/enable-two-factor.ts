import type { CallRequest, twoFactorEnableCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { sessionsQueryKey } from "./get-sessions";
import { twoFactorStatusQueryKey } from "./get-two-factor-status";

export function enableTwoFactor(input: CallRequest<typeof twoFactorEnableCall>) {
  return api.twoFactor.enable(input);
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: async () => {
      // Enabling signed out every other device, so the devices list changed too.
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey });
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
  });
}

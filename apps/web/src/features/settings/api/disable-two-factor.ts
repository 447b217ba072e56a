import type { CallRequest, twoFactorDisableCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { twoFactorStatusQueryKey } from "../../../lib/account-security/get-two-factor-status";
import { api } from "../../../lib/api-client";

export function disableTwoFactor(input: CallRequest<typeof twoFactorDisableCall>) {
  return api.twoFactor.disable(input);
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}

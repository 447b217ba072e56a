import { useMutation, useQueryClient } from "@tanstack/react-query";
import { twoFactorStatusQueryKey } from "../../../lib/account-security/get-two-factor-status";
import { api } from "../../../lib/api-client";

export function regenerateRecoveryCodes() {
  return api.twoFactor.regenerateRecoveryCodes({});
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}

import type { CallRequest, twoFactorEnableCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { twoFactorStatusQueryKey } from "./get-two-factor-status";

export function enableTwoFactor(input: CallRequest<typeof twoFactorEnableCall>) {
  return api.twoFactor.enable(input);
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}

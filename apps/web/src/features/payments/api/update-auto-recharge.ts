import type { GetPaymentInfoResponse, UpdateAutoRechargeRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { paymentInfoQueryKey } from "./get-payment-info";

export function updateAutoRecharge(input: UpdateAutoRechargeRequest) {
  return api.payments.updateAutoRecharge(input);
}

export function useUpdateAutoRecharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAutoRecharge,
    onSuccess: (_answer, { organizationId, enabled, threshold, amount }) =>
      queryClient.setQueryData<GetPaymentInfoResponse>(paymentInfoQueryKey(organizationId), (current) =>
        current ? { ...current, autorecharge: { enabled, threshold, amount } } : current,
      ),
  });
}

import type { GetPaymentInfoResponse } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { paymentInfoQueryKey } from "./get-payment-info";

export function deletePayment(organizationId: string) {
  return api.payments.deletePayment({ organizationId });
}

/** Removes the saved card; the box shows its empty state once the server has confirmed. */
export function useDeletePayment(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deletePayment(organizationId),
    onSuccess: () => {
      queryClient.setQueryData<GetPaymentInfoResponse>(paymentInfoQueryKey(organizationId), (current) =>
        current ? { ...current, payment: {} } : current,
      );
      return queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey(organizationId) });
    },
  });
}

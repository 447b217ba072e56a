import type { SandboxConfirmSetupRequest } from "@prism/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api } from "../../../lib/api-client";
import { paymentInfoQueryKey } from "./get-payment-info";

// Payment setup of the spec: request a client secret, show the card form, confirm the setup with
// the provider, finish the setup on our server, refresh the payment info.

export function startSetupPayment(organizationId: string) {
  return api.payments.startSetupPayment({ organizationId });
}

/** The sandbox provider's confirmation (our own card form); Stripe confirms in its own script. */
export function confirmSandboxSetup(input: SandboxConfirmSetupRequest) {
  return api.payments.sandboxConfirmSetup(input);
}

export function finishSetupPayment(organizationId: string, setupIntentId: string) {
  return api.payments.finishSetupPayment({ organizationId, setupIntentId });
}

/** Finishes a confirmed setup and reloads the card, resolving once the new card is in the cache. */
export function useFinishSetupPayment(organizationId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (setupIntentId: string) => {
      await finishSetupPayment(organizationId, setupIntentId);
      await queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey(organizationId) });
    },
    [organizationId, queryClient],
  );
}

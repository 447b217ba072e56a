import type { UpdateBillingRequest } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function updateBilling(input: UpdateBillingRequest) {
  return api.organizations.updateBilling(input);
}

/** Saves the billing details; the cached user (where the form reads them) takes the saved values. */
export function useUpdateBilling() {
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: updateBilling,
    onSuccess: (_answer, { organizationId, ...details }) =>
      updateUserInfo((current) => ({
        ...current,
        organizations: current.organizations.map((organization) =>
          organization.id === organizationId
            ? {
                ...organization,
                billingName: details.billingName.trim(),
                billingEmail: details.billingEmail.trim().toLowerCase(),
                taxId: details.taxId?.trim() || null,
                address: details.address.trim(),
                city: details.city.trim(),
                state: details.state.trim(),
                zipCode: details.zipCode.trim(),
                country: details.country.trim(),
              }
            : organization,
        ),
      })),
  });
}

import {
  DEFAULT_AUTORECHARGE,
  ERROR_DIALOGS,
  type GetPaymentInfoResponse,
  hasPaymentCard,
  type Organization,
} from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { api, isApiError } from "../../../lib/api-client";
import { canInOrganization } from "../../../lib/permissions";

export const paymentInfoQueryKey = (organizationId: string) =>
  ["organizations", organizationId, "payment-info"] as const;

/** What a user without organization.payments sees: no card, auto recharge off. */
export const EMPTY_PAYMENT_INFO: GetPaymentInfoResponse = {
  payment: {},
  autorecharge: { ...DEFAULT_AUTORECHARGE },
};

export async function getPaymentInfo(organizationId: string, signal?: AbortSignal) {
  try {
    return await api.payments.getPaymentInfo({ organizationId }, { signal });
  } catch (error) {
    // A right withdrawn since the user was loaded: the spec empties the payment info.
    if (isApiError(error) && error.status === 403) return EMPTY_PAYMENT_INFO;
    throw error;
  }
}

export function paymentInfoQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: paymentInfoQueryKey(organizationId),
    queryFn: ({ signal }) => getPaymentInfo(organizationId, signal),
  });
}

// Several widgets read the payment info (card box, recharge panel, auto recharge); one failure must
// raise one dialog, not one per widget.
let lastReportedFailureAt = 0;

/**
 * The selected organization's card and auto recharge: fetched only with
 * organization.payments; without it the answer is the empty info and no call is made.
 */
export function usePaymentInfo(organization: Organization | null) {
  const allowed = canInOrganization(organization, "organization.payments");
  const query = useQuery({
    ...paymentInfoQueryOptions(organization?.id ?? ""),
    enabled: allowed && organization !== null,
  });
  const { isError, errorUpdatedAt, error } = query;
  useEffect(() => {
    if (!isError || errorUpdatedAt === lastReportedFailureAt) return;
    lastReportedFailureAt = errorUpdatedAt;
    void showErrorDialog(ERROR_DIALOGS.paymentRetrieval, error);
  }, [isError, errorUpdatedAt, error]);

  const info = allowed ? query.data : EMPTY_PAYMENT_INFO;
  return {
    info,
    card: hasPaymentCard(info?.payment) ? info.payment : null,
    isLoading: allowed && query.isPending && !query.isError,
    isError: allowed && query.isError,
    refetch: query.refetch,
  };
}

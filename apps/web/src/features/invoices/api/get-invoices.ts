import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const invoicesQueryKey = (organizationId: string, page: number) =>
  ["organizations", organizationId, "invoices", page] as const;

export function getInvoices(organizationId: string, page: number, signal?: AbortSignal) {
  return api.invoices.get({ organizationId, page }, { signal });
}

export function invoicesQueryOptions(organizationId: string, page: number) {
  return queryOptions({
    queryKey: invoicesQueryKey(organizationId, page),
    queryFn: ({ signal }) => getInvoices(organizationId, page, signal),
    // A recharge elsewhere adds an invoice: the list is read afresh whenever the page opens.
    staleTime: 0,
    refetchOnMount: "always",
  });
}

/** One page of the organization's invoices; the previous page stays on screen while the next loads. */
export function useInvoices(organizationId: string, page: number, enabled: boolean) {
  return useQuery({
    ...invoicesQueryOptions(organizationId, page),
    enabled,
    placeholderData: keepPreviousData,
  });
}

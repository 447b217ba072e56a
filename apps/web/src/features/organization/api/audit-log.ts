import type { AuditFilter } from "@prism/contract";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const auditLogQueryKey = (filter: AuditFilter) =>
  ["organizations", filter.organizationId, "audit-log", filter] as const;

export function auditLogQueryOptions(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: auditLogQueryKey(filter),
    queryFn: ({ pageParam, signal }) =>
      api.audit.list({ ...filter, ...(pageParam ? { cursor: pageParam } : {}) }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Every change elsewhere adds entries: the log is read afresh whenever the page opens.
    staleTime: 0,
    refetchOnMount: "always",
  });
}

/** The organization's audit log, newest first, one keyset page at a time ("Load more"). */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery(auditLogQueryOptions(filter));
}

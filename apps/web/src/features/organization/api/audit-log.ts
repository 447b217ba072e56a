import type { AuditFilter } from "@prism/contract";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { cursorField, cursorPaging } from "../../../lib/cursor-paging";

export const auditLogQueryKey = (filter: AuditFilter) =>
  ["organizations", filter.organizationId, "audit-log", filter] as const;

export function auditLogQueryOptions(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: auditLogQueryKey(filter),
    queryFn: ({ pageParam, signal }) => api.audit.list({ ...filter, ...cursorField(pageParam) }, { signal }),
    ...cursorPaging,
    // Every change elsewhere adds entries: the log is read afresh whenever the page opens.
    staleTime: 0,
    refetchOnMount: "always",
  });
}

/** The organization's audit log, newest first, one keyset page at a time ("Load more"). */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery(auditLogQueryOptions(filter));
}

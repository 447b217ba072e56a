/**
 * Keyset paging as every list of the console pages (the Requests view, the audit log, the playground
 * history): the first page without a cursor, each next one with the previous page's `nextCursor`, until
 * a page answers none. Spread into `infiniteQueryOptions`/`useInfiniteQuery`.
 */
export const cursorPaging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
};

/** A page's request field: nothing for the first page, then `cursor`. */
export function cursorField(pageParam: string | undefined): { cursor?: string } {
  return pageParam ? { cursor: pageParam } : {};
}

import type { Feature, HistoryRequestRecord, PriceInfo } from "@prism/contract";
import { type InfiniteData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { api, isApiError } from "../../../lib/api-client";
import { cursorField, cursorPaging } from "../../../lib/cursor-paging";

/** A history row: a server record, or a local placeholder while its call runs (or after it failed). */
export interface HistoryItem extends HistoryRequestRecord {
  /** Stable React key: the record id, or a local id for a placeholder. */
  key: string;
  /** True for a placeholder that never reached the server's list. */
  local: boolean;
  /** `Date.now()` when the call started, for the elapsed counter. */
  startedAt?: number;
  /** Why a local call failed, shown on its Generation Error row. */
  errorMessage?: string;
  /** While the call waits in the queue: how many calls start before it (0: next). */
  queuePosition?: number | null;
}

/** Whether a row's call is still queued or running (its end is still to come). */
export function isOpenItem(item: Pick<HistoryItem, "status">): boolean {
  return item.status === "queued" || item.status === "generating";
}

export function fromRecord(record: HistoryRequestRecord): HistoryItem {
  return { ...record, key: record.id, local: false };
}

export interface PlaygroundHistory {
  items: HistoryItem[];
  hasMoreItems: boolean;
  loading: boolean;
  loadedOnce: boolean;
  failed: boolean;
  priceInfo: PriceInfo | null;
  /** Loads the next page unless one is loading, paging ended or a load failed. */
  loadMore: () => void;
  /** Puts a row at the top. */
  prepend: (item: HistoryItem) => void;
  /** Replaces the row with `key` (e.g. a placeholder by the stored record). */
  replace: (key: string, item: HistoryItem) => void;
  update: (key: string, change: (item: HistoryItem) => HistoryItem) => void;
  remove: (key: string) => void;
  /**
   * Re-reads the first page and updates the rows it holds, for records that change after the call
   * (AI Clone training). New rows are not added: they arrive through the screen's own call.
   */
  refresh: () => Promise<void>;
}

interface HistoryPage {
  items: HistoryItem[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
  priceInfo: PriceInfo;
}

/**
 * What this screen changed on top of the server's pages: rows it added at the top (its own calls,
 * replaced in place by their records) and server rows it replaced or removed (null), by key. Kept apart
 * from the query's pages because a page that is loading while a call ends would otherwise write back
 * the pages as they were.
 */
interface Edits {
  projectId: string | null;
  top: HistoryItem[];
  changed: ReadonlyMap<string, HistoryItem | null>;
}

const noEdits = (projectId: string | null): Edits => ({ projectId, top: [], changed: new Map() });

export function historyQueryKey(endpoint: string, projectId: string | null) {
  return ["playground", "history", endpoint, projectId] as const;
}

function merge(pages: readonly HistoryPage[], edits: Edits): HistoryItem[] {
  const seen = new Set<string>();
  const items: HistoryItem[] = [];
  for (const item of [...edits.top, ...pages.flatMap((page) => page.items)]) {
    const shown = edits.changed.has(item.key) ? edits.changed.get(item.key) : item;
    if (!shown || seen.has(shown.key)) continue;
    seen.add(shown.key);
    items.push(shown);
  }
  return items;
}

/**
 * The history list of one feature in the selected project, on TanStack Query's infinite query: the
 * first page when the project is known, the next ones by the previous page's cursor (as the Requests
 * view pages) until the server answers no `nextCursor` (its `hasMoreItems` is false), a new list when
 * the project changes. The spec's offset (the count of finished rows held) walks every row it skips on
 * the server and is refused past HISTORY_MAX_OFFSET; the cursor names the last row's (time, id), so a
 * page costs what the first does at any depth, and neither this screen's own calls (newer than the
 * cursor) nor its deletions (the keyset does not count rows) move where the next page starts. A load error shows the feature's dialog (a 401 signs out through the
 * api client instead) and ends paging.
 */
export function usePlaygroundHistory(
  feature: Pick<Feature, "endpoint" | "historyLoadError">,
  projectId: string | null,
): PlaygroundHistory {
  const endpoint = feature.endpoint;
  const loadError = feature.historyLoadError;
  const queryClient = useQueryClient();
  const queryKey = historyQueryKey(endpoint, projectId);
  const [stored, setEdits] = useState<Edits>(() => noEdits(projectId));
  // Another project's edits are not this list's: the list starts over without them.
  const edits = useMemo(
    () => (stored.projectId === projectId ? stored : noEdits(projectId)),
    [stored, projectId],
  );

  const query = useInfiniteQuery({
    queryKey,
    enabled: projectId !== null,
    ...cursorPaging,
    queryFn: async ({ pageParam, signal }): Promise<HistoryPage> => {
      try {
        const answer = await api.playground.getRequests(
          { endpoint, projectId: projectId ?? "", ...cursorField(pageParam) },
          { signal },
        );
        return {
          items: answer.requests.map(fromRecord),
          nextCursor: answer.nextCursor,
          priceInfo: answer.priceInfo,
        };
      } catch (error) {
        if (!(isApiError(error) && error.code === "aborted")) void showErrorDialog(loadError, error);
        throw error;
      }
    },
    // The list changes only through this screen (and `refresh`): no background refetches, and a
    // screen opened again starts from the first page, as it did before any cache.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const pages = query.data?.pages;
  const items = useMemo(() => merge(pages ?? [], edits), [edits, pages]);

  const serverPages = useCallback(
    () =>
      queryClient.getQueryData<InfiniteData<HistoryPage>>(historyQueryKey(endpoint, projectId))?.pages ?? [],
    [queryClient, endpoint, projectId],
  );
  const edit = useCallback(
    (change: (current: Edits) => Edits) =>
      setEdits((previous) => change(previous.projectId === projectId ? previous : noEdits(projectId))),
    [projectId],
  );
  const prepend = useCallback(
    (item: HistoryItem) => edit((current) => ({ ...current, top: [item, ...current.top] })),
    [edit],
  );
  const update = useCallback(
    (key: string, change: (item: HistoryItem) => HistoryItem) =>
      edit((current) => {
        if (current.top.some((item) => item.key === key)) {
          return { ...current, top: current.top.map((item) => (item.key === key ? change(item) : item)) };
        }
        const base = current.changed.has(key)
          ? current.changed.get(key)
          : serverPages()
              .flatMap((page) => page.items)
              .find((item) => item.key === key);
        return base ? { ...current, changed: new Map(current.changed).set(key, change(base)) } : current;
      }),
    [edit, serverPages],
  );
  const replace = useCallback((key: string, item: HistoryItem) => update(key, () => item), [update]);
  const remove = useCallback(
    (key: string) =>
      edit((current) => ({
        ...current,
        top: current.top.filter((item) => item.key !== key),
        changed: new Map(current.changed).set(key, null),
      })),
    [edit],
  );

  const refresh = useCallback(async () => {
    if (!projectId) return;
    const answer = await api.playground.getRequests({ endpoint, projectId });
    edit((current) => {
      const held = new Set(
        merge(serverPages(), current)
          .filter((item) => !item.local)
          .map((item) => item.key),
      );
      const next = { ...current, changed: new Map(current.changed) };
      for (const record of answer.requests) {
        if (!held.has(record.id)) continue;
        if (next.top.some((item) => item.key === record.id)) {
          next.top = next.top.map((item) => (item.key === record.id ? fromRecord(record) : item));
        } else {
          next.changed.set(record.id, fromRecord(record));
        }
      }
      return next;
    });
  }, [endpoint, projectId, edit, serverPages]);

  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (!projectId || isFetching || !hasNextPage || isError) return;
    void fetchNextPage();
  }, [projectId, isFetching, hasNextPage, isError, fetchNextPage]);

  return {
    items,
    hasMoreItems: pages ? hasNextPage : true,
    loading: query.isLoading || query.isFetchingNextPage,
    loadedOnce: pages !== undefined || isError,
    failed: isError,
    priceInfo: pages?.at(-1)?.priceInfo ?? null,
    loadMore,
    prepend,
    replace,
    update,
    remove,
    refresh,
  };
}

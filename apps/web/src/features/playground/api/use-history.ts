import type { Feature, HistoryRequestRecord, PriceInfo } from "@prism/contract";
import { useCallback, useEffect, useRef, useState } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { api, isApiError } from "../../../lib/api-client";

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
}

export function fromRecord(record: HistoryRequestRecord): HistoryItem {
  return { ...record, key: record.id, local: false };
}

/**
 * Paging offset: the count of finished rows the server already sent us. Rows still generating
 * and local placeholders (including failed calls the list never held) do not count.
 */
export function historyOffset(items: readonly HistoryItem[]): number {
  return items.filter((item) => !item.local && item.status !== "generating").length;
}

interface HistoryState {
  projectId: string | null;
  items: HistoryItem[];
  hasMoreItems: boolean;
  loading: boolean;
  /** A load failed: paging stops. */
  failed: boolean;
  loadedOnce: boolean;
  priceInfo: PriceInfo | null;
}

const initialState = (projectId: string | null): HistoryState => ({
  projectId,
  items: [],
  hasMoreItems: true,
  loading: false,
  failed: false,
  loadedOnce: false,
  priceInfo: null,
});

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

/**
 * The history list of one feature in the selected project: loads when the project is
 * known, pages by offset until `hasMoreItems` is false, starts over when the project changes. A load
 * error shows the feature's dialog (a 401 signs out through the api client instead) and ends paging.
 */
export function usePlaygroundHistory(
  feature: Pick<Feature, "endpoint" | "historyLoadError">,
  projectId: string | null,
): PlaygroundHistory {
  const [state, setState] = useState<HistoryState>(() => initialState(projectId));
  const stateRef = useRef(state);
  stateRef.current = state;
  const endpoint = feature.endpoint;
  const loadError = feature.historyLoadError;

  // A project change clears the list; the effect below then loads the first page.
  if (state.projectId !== projectId) {
    const fresh = initialState(projectId);
    stateRef.current = fresh;
    setState(fresh);
  }

  const loadMore = useCallback(() => {
    const current = stateRef.current;
    const forProject = current.projectId;
    if (!forProject || current.loading || !current.hasMoreItems || current.failed) return;
    const next = { ...current, loading: true };
    stateRef.current = next;
    setState(next);
    const offset = historyOffset(current.items);
    api.playground
      .getRequests({ endpoint, projectId: forProject, offset })
      .then((answer) => {
        setState((previous) => {
          if (previous.projectId !== forProject) return previous;
          const known = new Set(previous.items.map((item) => item.key));
          const added = answer.requests.filter((record) => !known.has(record.id)).map(fromRecord);
          return {
            ...previous,
            items: [...previous.items, ...added],
            hasMoreItems: answer.hasMoreItems,
            loading: false,
            loadedOnce: true,
            priceInfo: answer.priceInfo,
          };
        });
      })
      .catch((error: unknown) => {
        setState((previous) =>
          previous.projectId === forProject
            ? { ...previous, loading: false, failed: true, loadedOnce: true }
            : previous,
        );
        if (isApiError(error) && error.status === 401) return;
        void showErrorDialog(loadError, error);
      });
  }, [endpoint, loadError]);

  useEffect(() => {
    if (projectId && !state.loadedOnce && !state.loading && !state.failed) loadMore();
  }, [projectId, state.loadedOnce, state.loading, state.failed, loadMore]);

  const prepend = useCallback((item: HistoryItem) => {
    setState((previous) => ({ ...previous, items: [item, ...previous.items] }));
  }, []);
  const replace = useCallback((key: string, item: HistoryItem) => {
    setState((previous) => ({
      ...previous,
      items: previous.items.map((candidate) => (candidate.key === key ? item : candidate)),
    }));
  }, []);
  const update = useCallback((key: string, change: (item: HistoryItem) => HistoryItem) => {
    setState((previous) => ({
      ...previous,
      items: previous.items.map((candidate) => (candidate.key === key ? change(candidate) : candidate)),
    }));
  }, []);
  const remove = useCallback((key: string) => {
    setState((previous) => ({ ...previous, items: previous.items.filter((item) => item.key !== key) }));
  }, []);

  const refresh = useCallback(async () => {
    const forProject = stateRef.current.projectId;
    if (!forProject) return;
    const answer = await api.playground.getRequests({ endpoint, projectId: forProject, offset: 0 });
    const fresh = new Map(answer.requests.map((record) => [record.id, record]));
    setState((previous) =>
      previous.projectId === forProject
        ? {
            ...previous,
            items: previous.items.map((item) => {
              const record = item.local ? undefined : fresh.get(item.id);
              return record ? fromRecord(record) : item;
            }),
          }
        : previous,
    );
  }, [endpoint]);

  return {
    items: state.items,
    hasMoreItems: state.hasMoreItems,
    loading: state.loading,
    loadedOnce: state.loadedOnce,
    failed: state.failed,
    priceInfo: state.priceInfo,
    loadMore,
    prepend,
    replace,
    update,
    remove,
    refresh,
  };
}

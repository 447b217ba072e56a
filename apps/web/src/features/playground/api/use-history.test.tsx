import { backgroundRemovalFeature, HISTORY_MAX_OFFSET } from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { routeCalls } from "../../../test/msw";
import { fromRecord, type HistoryItem, usePlaygroundHistory } from "./use-history";

const PROJECT = "11111111-1111-4111-8111-111111111111";
const record = (id: string) => ({
  id,
  request_date: "2026-11-03T16:05:00Z",
  cost: 0.01,
  request_data: { files: {}, body: {} },
  response_data: { file: `/v1/files/${id}.png` },
  status: "done" as const,
});

type Page = { requests: ReturnType<typeof record>[] };

/**
 * Answers page `n` for the cursor `after-<n-1>` (the first page without one) as the server does:
 * `nextCursor` and `hasMoreItems` while pages are left, and an offset past HISTORY_MAX_OFFSET refused.
 */
function renderHistory(pages: Page[]) {
  const { bodiesTo } = routeCalls(({ body }) => {
    if (typeof body.offset === "number" && body.offset > HISTORY_MAX_OFFSET) {
      return HttpResponse.json({ error: "invalid-input", message: "offset too deep" }, { status: 400 });
    }
    const index = typeof body.cursor === "string" ? Number(body.cursor.slice("after-".length)) + 1 : 0;
    const more = index < pages.length - 1;
    return HttpResponse.json({
      requests: pages[index]?.requests ?? [],
      hasMoreItems: more,
      nextCursor: more ? `after-${index}` : null,
      priceInfo: { price: 0.01 },
    });
  });
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => usePlaygroundHistory(backgroundRemovalFeature, PROJECT), { wrapper });
  return { ...hook, bodies: () => bodiesTo("/v1/users/playground/get-requests") };
}

const keys = (items: HistoryItem[]) => items.map((item) => item.key);

describe("usePlaygroundHistory", () => {
  it("asks for the next page by the previous page's cursor, and keeps the screen's own calls through the load", async () => {
    const { result, bodies } = renderHistory([
      { requests: [record("a"), record("gone")] },
      { requests: [record("new"), record("b")] },
    ]);
    await waitFor(() => expect(keys(result.current.items)).toEqual(["a", "gone"]));
    act(() => result.current.remove("gone"));
    const placeholder: HistoryItem = { ...fromRecord(record("local-1")), local: true, status: "generating" };
    act(() => result.current.prepend(placeholder));
    act(() => result.current.replace("local-1", fromRecord(record("new"))));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.hasMoreItems).toBe(false));
    // Neither the call added at the top nor the row deleted moves where the next page starts.
    expect(bodies()).toEqual([
      { endpoint: backgroundRemovalFeature.endpoint, projectId: PROJECT },
      { endpoint: backgroundRemovalFeature.endpoint, projectId: PROJECT, cursor: "after-0" },
    ]);
    // The stored record the server now also lists is shown once, where the call put it.
    expect(keys(result.current.items)).toEqual(["new", "a", "b"]);
    expect(result.current.priceInfo).toEqual({ price: 0.01 });
  });

  it("pages on past the deepest offset the server takes", async () => {
    const PAGE = 500;
    const pages = Array.from({ length: Math.ceil(HISTORY_MAX_OFFSET / PAGE) + 2 }, (_, page) => ({
      requests: Array.from({ length: PAGE }, (_, row) => record(`r-${page * PAGE + row}`)),
    }));
    const { result, bodies } = renderHistory(pages);
    await waitFor(() => expect(result.current.items).toHaveLength(PAGE));
    for (let page = 1; page < pages.length; page += 1) {
      act(() => result.current.loadMore());
      await waitFor(() => expect(result.current.items).toHaveLength((page + 1) * PAGE));
    }
    expect(result.current.hasMoreItems).toBe(false);
    expect(result.current.failed).toBe(false);
    expect(result.current.items.length).toBeGreaterThan(HISTORY_MAX_OFFSET);
    expect(bodies().map((body) => body.cursor)).toEqual(
      pages.map((_, page) => (page ? `after-${page - 1}` : undefined)),
    );
    expect(bodies().some((body) => "offset" in body)).toBe(false);
  });

  it("removes and updates rows whichever page they came from", async () => {
    const { result } = renderHistory([{ requests: [record("a"), record("b")] }]);
    await waitFor(() => expect(keys(result.current.items)).toEqual(["a", "b"]));
    act(() => result.current.update("b", (item) => ({ ...item, cost: 0.5 })));
    act(() => result.current.remove("a"));
    expect(keys(result.current.items)).toEqual(["b"]);
    expect(result.current.items[0]?.cost).toBe(0.5);
  });

  it("stops paging after a failed load", async () => {
    routeCalls(() => HttpResponse.json({ error: "internal-error", message: "boom" }, { status: 500 }));
    const client = new QueryClient();
    const { result } = renderHook(() => usePlaygroundHistory(backgroundRemovalFeature, PROJECT), {
      wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.loadedOnce).toBe(true);
    expect(result.current.items).toEqual([]);
  });
});

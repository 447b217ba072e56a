import { backgroundRemovalFeature } from "@prism/contract";
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

function renderHistory(pages: { requests: ReturnType<typeof record>[]; hasMoreItems: boolean }[]) {
  let page = 0;
  const { bodiesTo } = routeCalls(() => {
    const answer = pages[Math.min(page, pages.length - 1)];
    page += 1;
    return HttpResponse.json({ ...answer, priceInfo: { price: 0.01 } });
  });
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => usePlaygroundHistory(backgroundRemovalFeature, PROJECT), { wrapper });
  return { ...hook, offsets: () => bodiesTo("/v1/users/playground/get-requests").map((body) => body.offset) };
}

const keys = (items: HistoryItem[]) => items.map((item) => item.key);

describe("usePlaygroundHistory", () => {
  it("counts the screen's own finished calls in the next page's offset, and keeps them through the load", async () => {
    const { result, offsets } = renderHistory([
      { requests: [record("a")], hasMoreItems: true },
      { requests: [record("new"), record("b")], hasMoreItems: false },
    ]);
    await waitFor(() => expect(keys(result.current.items)).toEqual(["a"]));
    const placeholder: HistoryItem = { ...fromRecord(record("local-1")), local: true, status: "generating" };
    act(() => result.current.prepend(placeholder));
    act(() => result.current.replace("local-1", fromRecord(record("new"))));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.hasMoreItems).toBe(false));
    expect(offsets()).toEqual([0, 2]);
    // The stored record the server now also lists is shown once, where the call put it.
    expect(keys(result.current.items)).toEqual(["new", "a", "b"]);
    expect(result.current.priceInfo).toEqual({ price: 0.01 });
  });

  it("removes and updates rows whichever page they came from", async () => {
    const { result } = renderHistory([{ requests: [record("a"), record("b")], hasMoreItems: false }]);
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

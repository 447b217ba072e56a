import { backgroundRemovalFeature, FEATURE_CALL_TIMEOUT_MS, PROJECT_HEADER } from "@prism/contract";
import { delay, HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setUnauthorizedHandler } from "../../../lib/api-client";
import { server } from "../../../test/msw";
import { callFeature } from "./call-feature";

const endpoint = backgroundRemovalFeature.endpoint;
const PROJECT = "11111111-1111-4111-8111-111111111111";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("callFeature", () => {
  it("sends the project header and hands a 401 to the api client's unauthorized handler", async () => {
    const seen: string[] = [];
    server.use(
      http.post(endpoint, ({ request }) => {
        seen.push(request.headers.get(PROJECT_HEADER) ?? "");
        return HttpResponse.json({ error: "unauthenticated", message: "Sign in." }, { status: 401 });
      }),
    );
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    await expect(callFeature(backgroundRemovalFeature, new FormData(), PROJECT)).rejects.toMatchObject({
      status: 401,
      code: "unauthenticated",
    });
    unregister();
    expect(seen).toEqual([PROJECT]);
    expect(handler).toHaveBeenCalledWith(expect.objectContaining({ status: 401 }), endpoint);
  });

  it("gives up after the contract's feature call timeout with a timeout error", async () => {
    server.use(
      http.post(endpoint, async () => {
        await delay("infinite");
        return HttpResponse.json({});
      }),
    );
    const real = AbortSignal.timeout.bind(AbortSignal);
    // The real bound is an hour beyond any provider's; the call is asked for it and given a short one.
    const timeout = vi.spyOn(AbortSignal, "timeout").mockImplementation(() => real(20));
    await expect(callFeature(backgroundRemovalFeature, new FormData(), PROJECT)).rejects.toMatchObject({
      status: 0,
      code: "timeout",
    });
    expect(timeout).toHaveBeenCalledWith(FEATURE_CALL_TIMEOUT_MS);
  });

  it("refuses a success that is not a feature answer", async () => {
    server.use(http.post(endpoint, () => HttpResponse.json({ unexpected: true })));
    await expect(callFeature(backgroundRemovalFeature, new FormData(), PROJECT)).rejects.toMatchObject({
      code: "invalid-response",
    });
  });
});

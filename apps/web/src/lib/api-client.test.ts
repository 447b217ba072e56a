import { calls } from "@prism/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, callApi, setUnauthorizedHandler } from "./api-client";

const userInfo = {
  id: "u1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  creationDate: "2026-01-01T00:00:00.000Z",
  organizations: [],
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("callApi", () => {
  it("posts JSON with the session cookie and returns the parsed answer", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, userInfo));
    await expect(api.users.me()).resolves.toMatchObject({ id: "u1", email: "ada@example.com" });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/v1/users/me");
    expect(init).toMatchObject({ method: "POST", credentials: "include", body: "{}" });
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it("sends the payload as the JSON body", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: "p1", name: "Alpha", organizationId: "o1" }));
    await api.projects.create({ name: "Alpha", organizationId: "o1" });
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      name: "Alpha",
      organizationId: "o1",
    });
  });

  it("turns an error body into an ApiError with status, code and message", async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { error: "forbidden", message: "Not allowed." }));
    const error = await callApi(calls.users.me).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: "forbidden", message: "Not allowed." });
  });

  it("reports a network failure as status 0", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    await expect(api.users.me()).rejects.toMatchObject({ status: 0, code: "network-error" });
  });

  it("rejects an answer that does not match the response schema", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { unexpected: true }));
    await expect(api.users.me()).rejects.toMatchObject({ status: 200, code: "invalid-response" });
  });

  it("hands a 401 on a session call to the unauthorized handler", async () => {
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(jsonResponse(401, { error: "unauthenticated", message: "Sign in." }));
    await expect(api.users.me()).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    unregister();
  });

  it("never hands a 401 on a public call to the unauthorized handler", async () => {
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(
      jsonResponse(401, { error: "invalid-credentials", message: "Invalid password" }),
    );
    await expect(
      callApi(calls.users.login, { email: "ada@example.com", password: "wrong" }),
    ).rejects.toMatchObject({ status: 401, code: "invalid-credentials" });
    expect(handler).not.toHaveBeenCalled();
    unregister();
  });
});

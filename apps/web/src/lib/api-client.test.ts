import { calls, DEFAULT_CALL_TIMEOUT_MS } from "@prism/contract";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { server } from "../test/msw";
import { ApiError, api, callApi, setReauthenticationHandler, setUnauthorizedHandler } from "./api-client";

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

/** Answers every call with `response` and keeps the requests the client sent. */
function answerWith(response: () => Response): Request[] {
  const requests: Request[] = [];
  server.use(
    http.post("*", ({ request }) => {
      requests.push(request);
      return response();
    }),
  );
  return requests;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("callApi", () => {
  it("posts JSON with the session cookie and returns the parsed answer", async () => {
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const requests = answerWith(() => jsonResponse(200, userInfo));
    await expect(api.users.me()).resolves.toMatchObject({ id: "u1", email: "ada@example.com" });
    const [request] = requests;
    expect(new URL(request?.url ?? "").pathname).toBe("/v1/users/me");
    expect(request?.method).toBe("POST");
    expect(request?.credentials).toBe("include");
    expect(await request?.text()).toBe("{}");
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(timeout).toHaveBeenCalledWith(calls.users.me.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
  });

  it("sends the payload as the JSON body", async () => {
    const requests = answerWith(() => jsonResponse(200, { id: "p1", name: "Alpha", organizationId: "o1" }));
    await api.projects.create({ name: "Alpha", organizationId: "o1" });
    expect(await requests[0]?.json()).toEqual({
      name: "Alpha",
      organizationId: "o1",
    });
  });

  it("turns an error body into an ApiError with status, code and message", async () => {
    answerWith(() => jsonResponse(403, { error: "forbidden", message: "Not allowed." }));
    const error = await callApi(calls.users.me).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: "forbidden", message: "Not allowed." });
  });

  it("reports a network failure as status 0", async () => {
    answerWith(() => HttpResponse.error());
    await expect(api.users.me()).rejects.toMatchObject({ status: 0, code: "network-error" });
  });

  it("rejects a success whose body is not JSON, such as a proxy's error page", async () => {
    answerWith(
      () =>
        new Response("<html>Bad gateway</html>", { status: 200, headers: { "content-type": "text/html" } }),
    );
    await expect(api.users.me()).rejects.toMatchObject({ status: 200, code: "invalid-response" });
  });

  it("takes an empty success as the empty answer", async () => {
    answerWith(() => new Response(null, { status: 204 }));
    await expect(api.users.logout()).resolves.toEqual({});
  });

  it("hands a 401 on a session call to the unauthorized handler", async () => {
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    answerWith(() => jsonResponse(401, { error: "unauthenticated", message: "Sign in." }));
    await expect(api.users.me()).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    unregister();
  });

  it("never hands a 401 on a public call to the unauthorized handler", async () => {
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    answerWith(() => jsonResponse(401, { error: "invalid-credentials", message: "Invalid password" }));
    await expect(
      callApi(calls.users.login, { email: "ada@example.com", password: "wrong" }),
    ).rejects.toMatchObject({ status: 401, code: "invalid-credentials" });
    expect(handler).not.toHaveBeenCalled();
    unregister();
  });

  describe("a sensitive call refused for want of a recent sign-in proof (decision 020)", () => {
    const refusal = { error: "reauthentication-required", message: "Please confirm it is you." };

    it("asks the handler for a proof, then sends the same call again and answers its result", async () => {
      let answered = 0;
      const requests = answerWith(() =>
        answered++ === 0 ? jsonResponse(403, refusal) : jsonResponse(200, {}),
      );
      const ask = vi.fn(async () => true);
      const unregister = setReauthenticationHandler(ask);
      await expect(api.users.changePassword({ password: "N3w-passw0rd!" })).resolves.toEqual({});
      expect(ask).toHaveBeenCalledTimes(1);
      expect(requests).toHaveLength(2);
      expect(await requests[1]?.json()).toEqual({ password: "N3w-passw0rd!" });
      unregister();
    });

    it("fails with the refusal when the user cancels, without sending the call again", async () => {
      const requests = answerWith(() => jsonResponse(403, refusal));
      const unregister = setReauthenticationHandler(async () => false);
      await expect(api.users.changePassword({ password: "N3w-passw0rd!" })).rejects.toMatchObject({
        status: 403,
        code: "reauthentication-required",
      });
      expect(requests).toHaveLength(1);
      unregister();
    });

    it("asks once: a second refusal after the proof is the call's answer", async () => {
      const requests = answerWith(() => jsonResponse(403, refusal));
      const ask = vi.fn(async () => true);
      const unregister = setReauthenticationHandler(ask);
      await expect(api.users.changePassword({ password: "N3w-passw0rd!" })).rejects.toMatchObject({
        code: "reauthentication-required",
      });
      expect(ask).toHaveBeenCalledTimes(1);
      expect(requests).toHaveLength(2);
      unregister();
    });

    it("leaves other 403s alone", async () => {
      answerWith(() => jsonResponse(403, { error: "forbidden", message: "Not allowed." }));
      const ask = vi.fn(async () => true);
      const unregister = setReauthenticationHandler(ask);
      await expect(api.users.changePassword({ password: "N3w-passw0rd!" })).rejects.toMatchObject({
        code: "forbidden",
      });
      expect(ask).not.toHaveBeenCalled();
      unregister();
    });
  });
});

import {
  backgroundRemovalFeature,
  PROJECT_HEADER,
  type RequestDetail,
  requestCancelPath,
  requestDetailPath,
} from "@prism/contract";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setUnauthorizedHandler } from "../../../lib/api-client";
import { server } from "../../../test/msw";
import { cancelRequest, getRequestDetail, submitFeatureCall } from "./call-feature";

const endpoint = backgroundRemovalFeature.endpoint;
const PROJECT = "11111111-1111-4111-8111-111111111111";
const ID = "22222222-2222-4222-8222-222222222222";

const accepted: RequestDetail = {
  id: ID,
  request_date: "2026-11-27T10:00:00.000Z",
  request_data: { files: { image: [`/v1/files/${PROJECT}/x/abcdefghijkl`] }, body: {} },
  response_data: {},
  status: "queued",
  cost: 0.01,
  endpoint,
  queue_position: 2,
  started_date: null,
  completed_date: null,
  reserved: 0.01,
  error: null,
  error_message: null,
  urls: { get: requestDetailPath(ID), cancel: requestCancelPath(ID) },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("submitFeatureCall", () => {
  it("asks for an asynchronous answer with the project header and answers the accepted call", async () => {
    const seen: { project: string | null; prefer: string | null }[] = [];
    server.use(
      http.post(endpoint, ({ request }) => {
        seen.push({ project: request.headers.get(PROJECT_HEADER), prefer: request.headers.get("prefer") });
        return HttpResponse.json(accepted, { status: 202 });
      }),
    );
    const submission = await submitFeatureCall(backgroundRemovalFeature, new FormData(), PROJECT);
    expect(submission).toEqual({ kind: "accepted", detail: accepted });
    expect(seen).toEqual([{ project: PROJECT, prefer: "respond-async" }]);
  });

  it("hands a 401 to the api client's unauthorized handler", async () => {
    server.use(
      http.post(endpoint, () =>
        HttpResponse.json({ error: "unauthenticated", message: "Sign in." }, { status: 401 }),
      ),
    );
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    await expect(submitFeatureCall(backgroundRemovalFeature, new FormData(), PROJECT)).rejects.toMatchObject({
      status: 401,
      code: "unauthenticated",
    });
    unregister();
    expect(handler).toHaveBeenCalledWith(expect.objectContaining({ status: 401 }), endpoint);
  });

  it("refuses a success that is neither an accepted call nor a feature answer", async () => {
    server.use(http.post(endpoint, () => HttpResponse.json({ unexpected: true }, { status: 202 })));
    await expect(submitFeatureCall(backgroundRemovalFeature, new FormData(), PROJECT)).rejects.toMatchObject({
      code: "invalid-response",
    });
  });
});

describe("following a call", () => {
  it("reads the call with a GET and the project header, and cancels it with a POST", async () => {
    const seen: string[] = [];
    server.use(
      http.get(requestDetailPath(ID), ({ request }) => {
        seen.push(`GET ${request.headers.get(PROJECT_HEADER)}`);
        return HttpResponse.json({ ...accepted, status: "running", queue_position: null });
      }),
      http.post(requestCancelPath(ID), ({ request }) => {
        seen.push(`POST ${request.headers.get(PROJECT_HEADER)}`);
        return HttpResponse.json({ ...accepted, status: "canceled", queue_position: null, cost: 0 });
      }),
    );
    expect((await getRequestDetail(ID, PROJECT)).status).toBe("running");
    expect((await cancelRequest(ID, PROJECT)).status).toBe("canceled");
    expect(seen).toEqual([`GET ${PROJECT}`, `POST ${PROJECT}`]);
  });
});

import {
  DEFAULT_CALL_TIMEOUT_MS,
  type FeatureCallResponse,
  type FeatureDefinition,
  featureCallResponse,
  PREFER_HEADER,
  PROJECT_HEADER,
  type RequestDetail,
  requestCancelPath,
  requestDetailPath,
  requestDetailSchema,
} from "@prism/contract";
import { z } from "zod";
import { exchange } from "../../../lib/api-client";

/**
 * What submitting a playground call answers: the call accepted and followed by its id (202, as every
 * playground call is made asynchronously so that a reload, a slow proxy or a long queue loses
 * nothing), or, for an Idempotency-Key replay, the finished answer.
 */
export type Submission =
  | { kind: "accepted"; detail: RequestDetail }
  | { kind: "done"; answer: FeatureCallResponse };

const submissionAnswer = z.union([featureCallResponse, requestDetailSchema]);

/**
 * One playground feature call: `POST <feature.endpoint>` as multipart with the session cookie, the
 * project in `x-authorization-project` and `Prefer: respond-async`, through the api client like every
 * console call: a 401 signs out, every refusal rejects with an `ApiError` (402 insufficient-balance,
 * 413/415/422 upload errors, 503 feature-unavailable, 0 for network failures and the client's own
 * timeout). The call's end is followed with {@link getRequestDetail}.
 */
export async function submitFeatureCall(
  feature: Pick<FeatureDefinition, "endpoint">,
  formData: FormData,
  projectId: string,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Submission> {
  const answer = await exchange({
    path: feature.endpoint,
    // No content-type: the browser writes the multipart boundary.
    headers: { [PROJECT_HEADER]: projectId, [PREFER_HEADER]: "respond-async", ...options.headers },
    body: formData,
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS * 4,
    signal: options.signal,
    session: true,
    response: submissionAnswer,
  });
  return "balance" in answer ? { kind: "done", answer } : { kind: "accepted", detail: answer };
}

/** One call of the project as it stands now (`GET /v1/requests/{id}`). */
export function getRequestDetail(
  id: string,
  projectId: string,
  signal?: AbortSignal,
): Promise<RequestDetail> {
  return exchange({
    path: requestDetailPath(id),
    method: "GET",
    headers: { [PROJECT_HEADER]: projectId },
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    signal,
    session: true,
    response: requestDetailSchema,
  });
}

/** Cancels a queued or running call (refunded in full); answers the canceled call. */
export function cancelRequest(id: string, projectId: string): Promise<RequestDetail> {
  return exchange({
    path: requestCancelPath(id),
    headers: { [PROJECT_HEADER]: projectId },
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    session: true,
    response: requestDetailSchema,
  });
}

import {
  FEATURE_CALL_TIMEOUT_MS,
  type FeatureCallResponse,
  type FeatureDefinition,
  featureCallResponse,
  PROJECT_HEADER,
} from "@prism/contract";
import { exchange } from "../../../lib/api-client";

/**
 * One playground feature call: `POST <feature.endpoint>` as multipart with the session cookie
 * and the project in `x-authorization-project`, through the api client like every console call: a 401
 * signs out, every failure rejects with an `ApiError` (402 insufficient-balance, 413/415/422 upload
 * errors, 502 feature-failed, 503 feature-unavailable, 504 feature-timeout, 0 for network failures and
 * the client's own timeout). Resolves `{ balance, request }`.
 */
export function callFeature(
  feature: Pick<FeatureDefinition, "endpoint">,
  formData: FormData,
  projectId: string,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<FeatureCallResponse> {
  return exchange({
    path: feature.endpoint,
    // No content-type: the browser writes the multipart boundary.
    headers: { [PROJECT_HEADER]: projectId, ...options.headers },
    body: formData,
    timeoutMs: FEATURE_CALL_TIMEOUT_MS,
    signal: options.signal,
    session: true,
    response: featureCallResponse,
  });
}

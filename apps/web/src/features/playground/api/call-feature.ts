import {
  type FeatureCallResponse,
  type FeatureDefinition,
  featureCallResponse,
  isErrorBody,
  PROJECT_HEADER,
} from "@prism/contract";
import { ApiError } from "../../../lib/api-client";

/**
 * One playground feature call: `POST <feature.endpoint>` as multipart with the session cookie
 * and the project in `x-authorization-project`. Resolves `{ balance, request }`; every failure rejects
 * with the same `ApiError` the JSON client uses (402 insufficient-balance, 413/415/422 upload errors,
 * 502 feature-failed, 503 feature-unavailable, 504 feature-timeout, 0 for network failures).
 */
export async function callFeature(
  feature: Pick<FeatureDefinition, "endpoint">,
  formData: FormData,
  projectId: string,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<FeatureCallResponse> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(feature.endpoint, {
      method: "POST",
      credentials: "include",
      headers: { accept: "application/json", [PROJECT_HEADER]: projectId, ...options.headers },
      body: formData,
      signal: options.signal,
    });
    const text = await response.text();
    body = text.trim() === "" ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") {
      throw new ApiError(0, "aborted", "The request was cancelled.");
    }
    if (error instanceof SyntaxError) {
      throw new ApiError(0, "invalid-response", "The server sent an unexpected answer.");
    }
    throw new ApiError(0, "network-error", "The server could not be reached. Please check your connection.");
  }
  if (!response.ok) {
    throw isErrorBody(body)
      ? new ApiError(response.status, body.error, body.message, body.field)
      : new ApiError(response.status, "http-error", `The server answered with status ${response.status}.`);
  }
  const parsed = featureCallResponse.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(response.status, "invalid-response", "The server sent an unexpected answer.");
  }
  return parsed.data;
}

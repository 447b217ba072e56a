import type { Feature } from "@prism/contract";
import { callValues, fillTemplate } from "./call-values";
import {
  type FeatureProvider,
  type ProviderAvailability,
  ProviderError,
  type ProviderInput,
  type ProviderOutput,
} from "./feature-provider";
import type { HostedModelEntry, HostedModelMap } from "./model-map";
import {
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  imageOutput,
  MAX_UPSTREAM_RESULT_BYTES,
  PROVIDER_TIMED_OUT,
  pause,
  RESULT_TOO_LARGE,
  retryingFetch,
  safeReason,
  timeoutOr,
  upstreamUsage,
} from "./upstream";

/**
 * Stability AI's v2beta Stable Image API (https://platform.stability.ai/docs/api-reference), which has
 * no official JavaScript client: one multipart POST per call to `/v2beta/<path>` with
 * `Accept: image/*`, the image in the answer's body (`finish-reason` says whether a filter replaced
 * it); the asynchronous endpoints answer `{ id }` and are polled at `/v2beta/results/{id}` (202 while
 * in progress). Its 400/413/422 are "invalid input" (its `errors` shown), 403 its content moderation,
 * 429 and 5xx retried with backoff within the call's deadline. Stability has no cancel: an abandoned
 * poll simply stops.
 */

export const STABILITY_API_URL = "https://api.stability.ai";
export const DEFAULT_STABILITY_CAPACITY = 4;

export interface StabilityProviderOptions {
  apiKey: string;
  baseUrl?: string;
  models: HostedModelMap;
  capacity?: number;
  pollIntervalMs?: number;
  backoff?: BackoffPolicy;
}

export function createStabilityProvider(options: StabilityProviderOptions): FeatureProvider {
  const baseUrl = (options.baseUrl ?? STABILITY_API_URL).replace(/\/+$/, "");
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;

  async function send(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    const fetchWithRetries = retryingFetch(signal, backoff);
    try {
      return await fetchWithRetries(`${baseUrl}${path}`, {
        ...init,
        signal,
        headers: { authorization: `Bearer ${options.apiKey}`, accept: "image/*", ...init.headers },
      });
    } catch (error) {
      throw timeoutOr(error, signal, "Stability AI is unreachable.");
    }
  }

  async function run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
    const entry = options.models[feature.id];
    if (!entry || feature.asynchronous) {
      throw new ProviderError("unavailable", "Stability AI has no model for this feature here.");
    }
    const form = await formOf(entry, input);
    let response = await send(`/v2beta/${entry.model}`, { method: "POST", body: form }, signal);
    await refuseUnlessOk(response);
    if (entry.mode === "async") {
      const { id } = (await response.json()) as { id?: unknown };
      if (typeof id !== "string")
        throw new ProviderError("failed", "Stability AI answered without a generation id.");
      do {
        try {
          await pause(pollIntervalMs, signal);
        } catch {
          throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
        }
        response = await send(`/v2beta/results/${encodeURIComponent(id)}`, { method: "GET" }, signal);
        await refuseUnlessOk(response);
      } while (response.status === 202);
    }
    if (response.headers.get("finish-reason") === "CONTENT_FILTERED") {
      await response.body?.cancel();
      throw new ProviderError(
        "invalid-input",
        "The request was rejected by the model provider's safety system.",
      );
    }
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > MAX_UPSTREAM_RESULT_BYTES) {
      await response.body?.cancel();
      throw new ProviderError("failed", RESULT_TOO_LARGE);
    }
    let data: Buffer;
    try {
      data = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw timeoutOr(error, signal, "Stability AI's result could not be read.");
    }
    if (data.length > MAX_UPSTREAM_RESULT_BYTES) throw new ProviderError("failed", RESULT_TOO_LARGE);
    return { ...(await imageOutput(data)), upstream: upstreamUsage(entry.price, undefined) };
  }

  return {
    name: "stability",
    capacity: { slots: options.capacity ?? DEFAULT_STABILITY_CAPACITY, scope: "shared" },
    supports: (feature) => options.models[feature.id] !== undefined && !feature.asynchronous,
    async availability(feature: Feature): Promise<ProviderAvailability> {
      return options.models[feature.id]
        ? { available: true }
        : { available: false, reason: "Stability AI has no model for this feature here." };
    },
    run,
  };
}

/** The map's input as multipart fields: files as files, everything else as text. */
async function formOf(entry: HostedModelEntry, input: ProviderInput): Promise<FormData> {
  const filled = (await fillTemplate(entry.input, callValues(input))) as Record<string, unknown>;
  const form = new FormData();
  for (const [name, value] of Object.entries(filled)) {
    if (value instanceof Blob) form.append(name, value, `${name}.${value.type.split("/")[1] ?? "bin"}`);
    else if (value !== undefined && value !== null)
      form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** Stability's error answers (`{ name, errors: [...] }`) onto ours. */
async function refuseUnlessOk(response: Response): Promise<void> {
  if (response.ok) return;
  let body: { name?: unknown; errors?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    body = {};
  }
  const reason = Array.isArray(body.errors)
    ? body.errors.filter((item) => typeof item === "string").join("; ")
    : "";
  const status = response.status;
  if (status === 403) {
    throw new ProviderError(
      "invalid-input",
      "The request was rejected by the model provider's safety system.",
    );
  }
  if (status === 400 || status === 413 || status === 422) {
    throw new ProviderError("invalid-input", safeReason(reason, "The model provider refused the input."));
  }
  if (status === 401)
    throw new ProviderError("unavailable", "Stability AI refused this deployment's API key.");
  if (status === 404)
    throw new ProviderError(
      "unavailable",
      "Stability AI does not know the endpoint this deployment asks for.",
    );
  throw new ProviderError("failed", `Stability AI could not process the request (HTTP ${status}).`);
}

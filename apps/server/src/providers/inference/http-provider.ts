import {
  DEFAULT_MODEL_SERVER_CONCURRENCY,
  FEATURES,
  type Feature,
  IDENTITY_REQUEST_HEADER,
  identityStatusSchema,
  transcriptionResultSchema,
} from "@prism/contract";
import { z } from "zod";
import {
  type FeatureProvider,
  type ProviderAvailability,
  ProviderError,
  type ProviderInput,
  type ProviderOutput,
  type TrainingStatus,
} from "./feature-provider";

/**
 * A model server speaking our HTTP protocol (docs/model-server.md): one `multipart/form-data` POST per
 * feature call to `<baseUrl>/<feature id>`, with the public API's field names; the answer is the result
 * image, or JSON for transcription and training. `GET <baseUrl>/health` tells whether it is up and
 * `GET <baseUrl>/pegasus-training/<identityId>` how a training is going.
 */

export interface HttpProviderOptions {
  /** The model server's base URL, e.g. `http://gpu-box:8000/prism` (a trailing slash is ignored). */
  baseUrl: string;
  /** The catalog feature ids this server implements, or `"all"`. */
  features: "all" | readonly string[];
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Longest a feature call may take before it fails with a timeout. */
  timeoutMs: number;
  /** Calls the model server takes at once across every server process; more wait in the call queue. */
  concurrency?: number;
  /** How long a health answer is reused (default 30 s). */
  healthCacheMs?: number;
  /** Longest the health probe and the training status query may take (default 5 s). */
  probeTimeoutMs?: number;
}

export interface HttpFeatureProvider extends FeatureProvider {
  readonly name: "http";
  /** The state of an AI Clone training the model server accepted (`GET <baseUrl>/pegasus-training/<id>`). */
  trainingStatus(identityId: string, signal?: AbortSignal): Promise<TrainingStatus>;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
/** Features whose result is a JSON body; every other feature answers with an image. */
const JSON_RESULT_FEATURES = new Set(["speech-to-text", "pegasus-training"]);
const DEFAULT_HEALTH_CACHE_MS = 30_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
const MAX_RESULT_BYTES = 128 * 1024 * 1024;
const MAX_ERROR_MESSAGE_LENGTH = 300;

export const UNREACHABLE_REASON = "The model server is unreachable.";

/** A training submission's answer: the identity at once, its training still to come (pending). */
const trainingAnswerSchema = z.object({
  identityId: z.string().trim().min(1),
  status: identityStatusSchema.default("pending"),
});
const trainingStatusSchema = z.object({ status: identityStatusSchema });

/** Checks a `features` setting against the catalog, so a typo stops the server at start-up. */
export function resolveFeatureIds(
  features: "all" | readonly string[],
  implementable: readonly string[] = FEATURES.map((feature) => feature.id),
): Set<string> {
  if (features === "all") {
    return new Set(implementable);
  }
  const unknown = features.filter((id) => !implementable.includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown or unsupported feature id(s): ${unknown.join(", ")}. Use any of: ${implementable.join(", ")}.`,
    );
  }
  return new Set(features);
}

export function createHttpProvider(options: HttpProviderOptions): HttpFeatureProvider {
  const baseUrl = new URL(options.baseUrl).toString().replace(/\/+$/, "");
  const featureIds = resolveFeatureIds(options.features);
  const healthCacheMs = options.healthCacheMs ?? DEFAULT_HEALTH_CACHE_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  let health: { at: number; answer: Promise<ProviderAvailability> } | undefined;

  function authHeaders(): Record<string, string> {
    return options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  }

  async function probeHealth(): Promise<ProviderAvailability> {
    try {
      const response = await fetch(`${baseUrl}/health`, {
        headers: authHeaders(),
        signal: AbortSignal.timeout(probeTimeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? { available: true } : { available: false, reason: UNREACHABLE_REASON };
    } catch {
      return { available: false, reason: UNREACHABLE_REASON };
    }
  }

  return {
    name: "http",
    capacity: { slots: options.concurrency ?? DEFAULT_MODEL_SERVER_CONCURRENCY, scope: "shared" },

    supports(feature: Feature): boolean {
      return featureIds.has(feature.id);
    },

    availability(feature: Feature): Promise<ProviderAvailability> {
      if (!featureIds.has(feature.id)) {
        return Promise.resolve({ available: false, reason: "The model server does not offer this feature." });
      }
      const now = Date.now();
      if (!health || now - health.at >= healthCacheMs) {
        health = { at: now, answer: probeHealth() };
      }
      return health.answer;
    },

    async run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
      if (!featureIds.has(feature.id)) {
        throw new ProviderError("unavailable", "The model server does not offer this feature.");
      }
      const headers: Record<string, string> = {
        ...authHeaders(),
        accept: "image/png, image/jpeg, image/webp, application/json",
      };
      if (input.identity) {
        headers[IDENTITY_REQUEST_HEADER] = input.identity.requestId;
      }
      const { response, signal: combined } = await send(
        `${baseUrl}/${feature.id}`,
        { method: "POST", headers, body: toFormData(input) },
        signal,
        options.timeoutMs,
      );
      try {
        return await readResult(feature, response);
      } catch (error) {
        throw asProviderError(error, combined);
      }
    },

    async trainingStatus(identityId: string, signal?: AbortSignal): Promise<TrainingStatus> {
      const { response, signal: combined } = await send(
        `${baseUrl}/pegasus-training/${encodeURIComponent(identityId)}`,
        { method: "GET", headers: { ...authHeaders(), accept: "application/json" } },
        signal,
        probeTimeoutMs,
      );
      let body: unknown;
      try {
        body = await readJson(response);
      } catch (error) {
        throw asProviderError(error, combined);
      }
      const parsed = trainingStatusSchema.safeParse(body);
      if (!parsed.success) {
        throw new ProviderError(
          "failed",
          "The model server answered the training status in an unknown shape.",
        );
      }
      return { status: parsed.data.status };
    },
  };
}

/** The multipart body: files and body fields under their public API names, identity as `identity_id`. */
export function toFormData(input: ProviderInput): FormData {
  const form = new FormData();
  for (const [field, files] of Object.entries(input.files)) {
    for (const file of files) {
      form.append(field, new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.filename);
    }
  }
  for (const [field, value] of Object.entries(input.body)) {
    if (value === undefined || value === null) {
      continue;
    }
    form.append(field, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  if (input.identity) {
    form.set("identity_id", input.identity.identityId);
  }
  return form;
}

/** One request with the caller's signal and our own deadline; failures become ProviderErrors. */
async function send(
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<{ response: Response; signal: AbortSignal }> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: combined });
  } catch (error) {
    throw asProviderError(error, combined);
  }
  if (response.ok) {
    return { response, signal: combined };
  }
  const message = await errorMessage(response);
  if (response.status === 422) {
    throw new ProviderError("invalid-input", message);
  }
  if (response.status === 503) {
    throw new ProviderError("unavailable", message);
  }
  throw new ProviderError("failed", message);
}

function asProviderError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) {
    return error;
  }
  if (
    signal.aborted ||
    (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))
  ) {
    return new ProviderError("timeout", "The model server did not answer in time.");
  }
  const wrapped = new ProviderError("unavailable", UNREACHABLE_REASON);
  wrapped.cause = error;
  return wrapped;
}

async function errorMessage(response: Response): Promise<string> {
  const generic = `The model server could not process the request (HTTP ${response.status}).`;
  let text: string;
  try {
    text = await response.text();
  } catch {
    return generic;
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null) {
      const { message, error, detail } = body as Record<string, unknown>;
      const found = [message, error, detail].find(
        (value): value is string => typeof value === "string" && value.trim() !== "",
      );
      if (found) {
        return found.trim().slice(0, MAX_ERROR_MESSAGE_LENGTH);
      }
    }
  } catch {
    // Not JSON: the generic text is safer than an HTML error page.
  }
  return generic;
}

function contentTypeOf(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

async function readJson(response: Response): Promise<unknown> {
  const type = contentTypeOf(response);
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new ProviderError(
      "failed",
      `The model server answered with ${type || "no content type"}, not JSON.`,
    );
  }
  try {
    return await response.json();
  } catch {
    throw new ProviderError("failed", "The model server answered with malformed JSON.");
  }
}

async function readResult(feature: Feature, response: Response): Promise<ProviderOutput> {
  const declaredLength = Number(response.headers.get("content-length") ?? "0");
  if (declaredLength > MAX_RESULT_BYTES) {
    await response.body?.cancel();
    throw new ProviderError("failed", "The model server's result is too large.");
  }
  if (JSON_RESULT_FEATURES.has(feature.id)) {
    const body = await readJson(response);
    const schema = feature.id === "speech-to-text" ? transcriptionResultSchema : trainingAnswerSchema;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ProviderError("failed", "The model server's result does not have the documented shape.");
    }
    return { kind: "json", body: parsed.data };
  }
  const type = contentTypeOf(response);
  if (!IMAGE_TYPES.has(type)) {
    await response.body?.cancel();
    throw new ProviderError(
      "failed",
      `The model server answered with ${type || "no content type"} where an image was expected.`,
    );
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length === 0) {
    throw new ProviderError("failed", "The model server answered with an empty image.");
  }
  if (data.length > MAX_RESULT_BYTES) {
    throw new ProviderError("failed", "The model server's result is too large.");
  }
  return { kind: "image", data, mimeType: type };
}

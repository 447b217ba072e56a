import type { FalClient, QueueStatus } from "@fal-ai/client";
import type { Feature, IdentityStatus } from "@prism/contract";
import { callValues, fillTemplate, transcriptionOf, urlIn, valueAt } from "./call-values";
import {
  type FeatureProvider,
  type ProviderAvailability,
  ProviderError,
  type ProviderInput,
  type ProviderOutput,
  type TrainingStatus,
} from "./feature-provider";
import type { HostedModelEntry, HostedModelMap } from "./model-map";
import {
  fetchResult,
  hostEntryOf,
  imageOutput,
  PROVIDER_TIMED_OUT,
  pause,
  safeReason,
  timeoutOr,
  untilAborted,
  upstreamUsage,
} from "./upstream";

/**
 * fal through its official client (`@fal-ai/client`): each call submitted to fal's queue
 * (`queue.submit`, which uploads Blob inputs to fal's storage first), its status polled with its
 * queue position (`queue.status`), its result read (`queue.result`), and cancelled with
 * `queue.cancel` when our call is cancelled or runs out of time. The client retries 429/502/503/504
 * with backoff itself (QUEUE_RETRY_CONFIG in its queue.js), stopping when the call's signal aborts.
 * AI Clone training runs fal's LoRA trainer through the same queue: the clone's identity is the
 * trainer's request id, and the model runs with the LoRA weights its result names.
 */

/** fal's hosts, as the client's request.js and config.js build them. */
const FAL_QUEUE_ORIGIN = "https://queue.fal.run";
const FAL_REST_ORIGIN = "https://rest.fal.ai";
/** Where fal serves results (its CDN, and the bucket older endpoints answer with). */
export const FAL_RESULT_HOSTS = ["fal.media", ".fal.media", "storage.googleapis.com"] as const;
export const DEFAULT_FAL_CAPACITY = 8;
const CANCEL_TIMEOUT_MS = 10_000;
/** Longest a submission (with the uploads of its files) may take. */
const SUBMIT_TIMEOUT_MS = 120_000;

export interface FalProviderOptions {
  apiKey: string;
  /** Stands in for both of fal's hosts (queue and storage): a fake in tests. */
  baseUrl?: string;
  models: HostedModelMap;
  capacity?: number;
  /** Between two status polls (default 1 s). */
  pollIntervalMs?: number;
}

type FalModule = typeof import("@fal-ai/client");

export function createFalProvider(options: FalProviderOptions): FeatureProvider {
  const baseUrl = options.baseUrl?.replace(/\/+$/, "");
  const allowedHosts = [...FAL_RESULT_HOSTS, ...(baseUrl ? [hostEntryOf(baseUrl)] : [])];
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const trainedWeights = new Map<string, string>();
  let connection: Promise<{ module: FalModule; client: FalClient }> | undefined;

  /** Sends what the client addresses to fal's hosts to the configured base instead. */
  const rewritingFetch: typeof fetch = (input, init) => {
    if (!baseUrl || typeof input !== "string") return fetch(input, init);
    let target = input;
    for (const origin of [FAL_QUEUE_ORIGIN, FAL_REST_ORIGIN]) {
      if (input.startsWith(`${origin}/`)) target = `${baseUrl}${input.slice(origin.length)}`;
    }
    return fetch(target, init);
  };

  function connect() {
    connection ??= import("@fal-ai/client").then((module) => ({
      module,
      client: module.createFalClient({
        credentials: options.apiKey,
        fetch: rewritingFetch,
        suppressLocalCredentialsWarning: true,
      }),
    }));
    return connection;
  }

  function specFor(entry: HostedModelEntry, input: ProviderInput): HostedModelEntry {
    if (!input.identity || !entry.identity) return entry;
    return {
      ...entry,
      model: entry.identity.model ?? entry.model,
      input: entry.identity.input ?? entry.input,
      output: entry.identity.output ?? entry.output,
    };
  }

  function trainer(): HostedModelEntry {
    const entry = options.models["pegasus-training"];
    if (!entry) throw new ProviderError("unavailable", "fal has no trainer for AI Clones here.");
    return entry;
  }

  async function resolveIdentity(identityId: string, signal: AbortSignal): Promise<string> {
    const known = trainedWeights.get(identityId);
    if (known) return known;
    const { client, module } = await connect();
    const entry = trainer();
    let weights: unknown;
    try {
      const result = await client.queue.result(entry.model, { requestId: identityId, abortSignal: signal });
      weights = urlIn(valueAt(result.data, entry.output));
    } catch (error) {
      throw mapError(error, module, signal, "The AI Clone's weights could not be read from fal.");
    }
    if (typeof weights !== "string") {
      throw new ProviderError("invalid-input", "The AI Clone is not ready on the model provider.");
    }
    trainedWeights.set(identityId, weights);
    return weights;
  }

  /** Submits, follows and reads one queue request; cancels it upstream when the signal aborts. */
  async function runQueued(
    endpoint: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ data: unknown; inferenceSeconds: number | undefined }> {
    const { client, module } = await connect();
    // The submission is not tied to the call's signal: a cancel that arrives while it is on its way
    // answers the caller at once, and the request is cancelled as soon as fal names it.
    const submitting = client.queue.submit(endpoint, {
      input,
      abortSignal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
    });
    let requestId: string;
    try {
      ({ request_id: requestId } = await untilAborted(submitting, signal));
    } catch (error) {
      if (signal.aborted) {
        submitting.then(({ request_id }) => cancel(client, endpoint, request_id)).catch(() => undefined);
        throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
      }
      throw mapError(error, module, signal, "fal could not take the request.");
    }
    let status: QueueStatus;
    try {
      do {
        status = await client.queue.status(endpoint, { requestId, logs: false, abortSignal: signal });
        if (status.status !== "COMPLETED") await pause(pollIntervalMs, signal);
      } while (status.status !== "COMPLETED");
    } catch (error) {
      if (signal.aborted) {
        await cancel(client, endpoint, requestId);
        throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
      }
      throw mapError(error, module, signal, "fal could not be asked how the request went.");
    }
    try {
      const result = await client.queue.result(endpoint, { requestId, abortSignal: signal });
      return { data: result.data, inferenceSeconds: status.metrics?.inference_time ?? undefined };
    } catch (error) {
      throw mapError(error, module, signal, "fal's result could not be read.");
    }
  }

  async function run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
    const entry = options.models[feature.id];
    if (!entry) throw new ProviderError("unavailable", "fal has no model for this feature here.");
    if (feature.asynchronous) {
      const { client, module } = await connect();
      const values = callValues(input);
      try {
        const submitted = await client.queue.submit(entry.model, {
          input: (await fillTemplate(entry.input, values)) as Record<string, unknown>,
          abortSignal: signal,
        });
        return { kind: "json", body: { identityId: submitted.request_id, status: "pending" } };
      } catch (error) {
        throw mapError(error, module, signal, "fal could not start the training.");
      }
    }
    const spec = specFor(entry, input);
    const values = callValues(input, (identityId) => resolveIdentity(identityId, signal));
    const endpoint = String(await fillTemplate(spec.model, values));
    const modelInput = (await fillTemplate(spec.input, values)) as Record<string, unknown>;
    const { data, inferenceSeconds } = await runQueued(endpoint, modelInput, signal);
    const upstream = upstreamUsage(spec.price, inferenceSeconds);
    const value = valueAt(data, spec.output);
    if (feature.id === "speech-to-text") {
      const language = typeof input.body.language === "string" ? input.body.language : "";
      return { kind: "json", body: transcriptionOf(value, language), upstream };
    }
    const url = urlIn(value);
    if (!url) throw new ProviderError("failed", "fal's answer has no result file.");
    const { data: bytes } = await fetchResult(url, { allowedHosts, signal });
    return { ...(await imageOutput(bytes)), upstream };
  }

  return {
    name: "fal",
    capacity: { slots: options.capacity ?? DEFAULT_FAL_CAPACITY, scope: "shared" },
    supports: (feature) => options.models[feature.id] !== undefined,
    async availability(feature: Feature): Promise<ProviderAvailability> {
      return options.models[feature.id]
        ? { available: true }
        : { available: false, reason: "fal has no model for this feature here." };
    },
    run,
    async trainingStatus(identityId: string, signal?: AbortSignal): Promise<TrainingStatus> {
      const deadline = signal ?? AbortSignal.timeout(CANCEL_TIMEOUT_MS);
      const { client, module } = await connect();
      const entry = trainer();
      let status: QueueStatus;
      try {
        status = await client.queue.status(entry.model, {
          requestId: identityId,
          logs: false,
          abortSignal: deadline,
        });
      } catch (error) {
        throw mapError(error, module, deadline, "fal could not be asked how the training goes.");
      }
      const states: Record<QueueStatus["status"], IdentityStatus> = {
        IN_QUEUE: "pending",
        IN_PROGRESS: "training",
        COMPLETED: "ready",
      };
      if (status.status !== "COMPLETED") return { status: states[status.status] };
      try {
        await resolveIdentity(identityId, deadline);
        return { status: "ready" };
      } catch (error) {
        // A trainer that completed with an error has no weights: the clone failed.
        if (error instanceof ProviderError && error.code !== "timeout" && error.code !== "unavailable") {
          return { status: "failed" };
        }
        throw error;
      }
    },
  };
}

async function cancel(client: FalClient, endpoint: string, requestId: string): Promise<void> {
  await client.queue
    .cancel(endpoint, { requestId, abortSignal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) })
    .catch(() => undefined);
}

/**
 * fal's errors onto ours: a ValidationError (422) is the model refusing the input, its messages shown;
 * 401/403 mean this deployment's key; 404 an endpoint the map names wrongly; the rest failed.
 */
function mapError(error: unknown, module: FalModule, signal: AbortSignal, fallback: string): ProviderError {
  if (error instanceof ProviderError) return error;
  let mapped: ProviderError;
  if (error instanceof module.ValidationError) {
    const messages = error.fieldErrors.map((field) => field.msg).filter(Boolean);
    mapped = new ProviderError(
      "invalid-input",
      safeReason(messages.join("; "), "The model provider refused the input."),
    );
  } else if (error instanceof module.ApiError) {
    if (error.status === 401 || error.status === 403) {
      mapped = new ProviderError("unavailable", "fal refused this deployment's key.");
    } else if (error.status === 404) {
      mapped = new ProviderError("unavailable", "fal does not know the endpoint this deployment asks for.");
    } else if (error.status === 400) {
      mapped = new ProviderError(
        "invalid-input",
        safeReason((error.body as { detail?: unknown })?.detail, "The model provider refused the input."),
      );
    } else {
      mapped = new ProviderError("failed", `${fallback} (HTTP ${error.status})`);
    }
  } else {
    return timeoutOr(error, signal, "fal is unreachable.");
  }
  mapped.cause = error;
  return mapped;
}

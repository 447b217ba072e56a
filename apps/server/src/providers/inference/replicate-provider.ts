import type { Feature, IdentityStatus } from "@prism/contract";
import type Replicate from "replicate";
import type { Prediction, Training } from "replicate";
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
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  fetchResult,
  hostEntryOf,
  imageOutput,
  PROVIDER_TIMED_OUT,
  pause,
  retryingFetch,
  safeReason,
  timeoutOr,
  untilAborted,
  upstreamUsage,
} from "./upstream";

/**
 * Replicate through its official client (`replicate` on npm): predictions created with
 * `Prefer: wait` (the client's `wait` option) and then polled until they end, cancelled at
 * `/predictions/{id}/cancel` when our call is cancelled or runs out of time; AI Clone training through
 * the trainings API, the clone's identity being the training's id and the model it runs with the
 * version the training created. Files go up through Replicate's Files API (the client's "upload"
 * strategy); results come down only from Replicate's delivery hosts.
 */

export const REPLICATE_API_URL = "https://api.replicate.com/v1";
/** Where Replicate serves prediction outputs (https://replicate.com/docs/topics/predictions/output-files). */
export const REPLICATE_RESULT_HOSTS = ["replicate.delivery", ".replicate.delivery"] as const;
export const DEFAULT_REPLICATE_CAPACITY = 8;
/** The model trainings create versions of when the map names none: `<account>/<this>`. */
export const DEFAULT_CLONE_MODEL_NAME = "prism-ai-clones";

export interface ReplicateProviderOptions {
  apiToken: string;
  /** The API base including `/v1` (default {@link REPLICATE_API_URL}); a fake in tests. */
  baseUrl?: string;
  models: HostedModelMap;
  /** Calls it may run at once across all server processes (REPLICATE_CONCURRENCY). */
  capacity?: number;
  /** Seconds the create request may block for a result (`Prefer: wait=n`, 1 to 60; default 10). */
  waitSeconds?: number;
  /** Between two polls of a prediction still running (default 1 s). */
  pollIntervalMs?: number;
  backoff?: BackoffPolicy;
}

type ReplicateModule = typeof import("replicate");

const STATUS_OF: Record<string, IdentityStatus> = {
  starting: "pending",
  processing: "training",
  succeeded: "ready",
  failed: "failed",
  canceled: "failed",
};
const TERMINAL = new Set(["succeeded", "failed", "canceled"]);
const CANCEL_TIMEOUT_MS = 10_000;
/** How long the create request may run beyond its `Prefer: wait`, for the upload and the network. */
const CREATE_GRACE_MS = 30_000;

export function createReplicateProvider(options: ReplicateProviderOptions): FeatureProvider {
  const baseUrl = (options.baseUrl ?? REPLICATE_API_URL).replace(/\/+$/, "");
  const allowedHosts = [...REPLICATE_RESULT_HOSTS, hostEntryOf(baseUrl)];
  const waitSeconds = Math.min(60, Math.max(1, options.waitSeconds ?? 10));
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const trainedVersions = new Map<string, string>();
  let destination: Promise<string> | undefined;
  // The client is loaded with the first call, not with the server (start-up time).
  let module: Promise<ReplicateModule> | undefined;

  /** A client whose requests retry busy answers within `signal` (one per call: see retryingFetch). */
  async function clientFor(signal: AbortSignal): Promise<Replicate> {
    module ??= import("replicate");
    const { default: ReplicateClient } = await module;
    return new ReplicateClient({
      auth: options.apiToken,
      baseUrl,
      fetch: retryingFetch(signal, backoff),
      fileEncodingStrategy: "upload",
      useFileOutput: false,
    });
  }

  async function cancelPrediction(id: string): Promise<void> {
    const client = await clientFor(AbortSignal.timeout(CANCEL_TIMEOUT_MS));
    await client.predictions
      .cancel(id, { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) })
      .catch(() => undefined);
  }

  /** The specification the call runs: the clone's when it names one and the entry has one. */
  function specFor(entry: HostedModelEntry, input: ProviderInput) {
    if (!input.identity || !entry.identity) return entry;
    return {
      ...entry,
      model: entry.identity.model ?? entry.model,
      input: entry.identity.input ?? entry.input,
      output: entry.identity.output ?? entry.output,
    };
  }

  async function resolveIdentity(identityId: string, signal: AbortSignal): Promise<string> {
    const known = trainedVersions.get(identityId);
    if (known) return known;
    const client = await clientFor(signal);
    let training: Training;
    try {
      training = await client.trainings.get(identityId, { signal });
    } catch (error) {
      throw await mapError(error, signal, "The AI Clone's training could not be read.");
    }
    const version = (training.output as { version?: unknown } | null | undefined)?.version;
    if (training.status !== "succeeded" || typeof version !== "string" || version === "") {
      throw new ProviderError("invalid-input", "The AI Clone is not ready on the model provider.");
    }
    trainedVersions.set(identityId, version);
    return version;
  }

  async function run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
    const entry = options.models[feature.id];
    if (!entry) throw new ProviderError("unavailable", "Replicate has no model for this feature here.");
    if (feature.asynchronous) return startTraining(entry, input, signal);
    const spec = specFor(entry, input);
    const values = callValues(input, (identityId) => resolveIdentity(identityId, signal));
    const model = String(await fillTemplate(spec.model, values));
    const modelInput = (await fillTemplate(spec.input, values)) as Record<string, unknown>;
    const client = await clientFor(signal);
    const target = modelTarget(model);

    // The create request is not tied to the call's signal: a cancel that arrives while it blocks
    // (Prefer: wait) answers the caller at once, and the prediction is cancelled as soon as the
    // request returns its id.
    const creating = client.predictions.create({
      ...target,
      input: modelInput,
      wait: waitSeconds,
      signal: AbortSignal.timeout(waitSeconds * 1000 + CREATE_GRACE_MS),
    });
    let prediction: Prediction;
    try {
      prediction = await untilAborted(creating, signal);
    } catch (error) {
      if (signal.aborted) {
        creating.then((created) => cancelPrediction(created.id)).catch(() => undefined);
        throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
      }
      throw await mapError(error, signal, "Replicate could not start the prediction.");
    }
    try {
      while (!TERMINAL.has(prediction.status)) {
        await pause(pollIntervalMs, signal);
        prediction = await client.predictions.get(prediction.id, { signal });
      }
    } catch (error) {
      if (signal.aborted) {
        await cancelPrediction(prediction.id);
        throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
      }
      throw await mapError(error, signal, "Replicate could not be asked how the prediction went.");
    }
    if (signal.aborted) {
      throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
    }
    if (prediction.status !== "succeeded") {
      throw new ProviderError(
        "failed",
        prediction.status === "canceled"
          ? "The prediction was cancelled on Replicate."
          : safeReason(prediction.error, "The model failed on Replicate."),
      );
    }
    const upstream = upstreamUsage(spec.price, prediction.metrics?.predict_time);
    const value = valueAt(prediction.output, spec.output);
    if (feature.id === "speech-to-text") {
      const language = typeof input.body.language === "string" ? input.body.language : "";
      return { kind: "json", body: transcriptionOf(value, language), upstream };
    }
    const url = urlIn(value);
    if (!url) throw new ProviderError("failed", "Replicate's prediction has no result file.");
    const { data } = await fetchResult(url, {
      allowedHosts,
      signal,
      headers: { authorization: `Bearer ${options.apiToken}` },
    });
    return { ...(await imageOutput(data)), upstream };
  }

  /** `<account>/prism-ai-clones` (or the map's destination), created private the first time. */
  function cloneDestination(entry: HostedModelEntry, signal: AbortSignal): Promise<string> {
    if (entry.destination) return Promise.resolve(entry.destination);
    destination ??= (async () => {
      const client = await clientFor(signal);
      const account = (await client.accounts.current({ signal })) as { username: string };
      const owner = account.username;
      try {
        await client.models.get(owner, DEFAULT_CLONE_MODEL_NAME, { signal });
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        await client.models.create(owner, DEFAULT_CLONE_MODEL_NAME, {
          visibility: "private",
          hardware: "gpu-h100",
          description: "AI Clones trained by Prism: one version per clone.",
          signal,
        });
      }
      return `${owner}/${DEFAULT_CLONE_MODEL_NAME}`;
    })();
    destination.catch(() => {
      destination = undefined;
    });
    return destination;
  }

  async function startTraining(
    entry: HostedModelEntry,
    input: ProviderInput,
    signal: AbortSignal,
  ): Promise<ProviderOutput> {
    const values = callValues(input);
    const client = await clientFor(signal);
    const [owner, name, version] = trainerParts(entry.model);
    let training: Training;
    try {
      const to = await cloneDestination(entry, signal);
      // The trainings endpoint takes URLs only: the photos' zip goes up through the Files API first.
      const trainerInput = await uploadBlobs(await fillTemplate(entry.input, values), async (blob) => {
        const file = (await client.files.create(blob, {}, { signal })) as { urls: { get: string } };
        return file.urls.get;
      });
      training = await client.trainings.create(owner, name, version, {
        destination: to as `${string}/${string}`,
        input: trainerInput as Record<string, unknown>,
        signal,
      });
    } catch (error) {
      throw await mapError(error, signal, "Replicate could not start the training.");
    }
    return {
      kind: "json",
      body: { identityId: training.id, status: STATUS_OF[training.status] ?? "pending" },
    };
  }

  return {
    name: "replicate",
    capacity: { slots: options.capacity ?? DEFAULT_REPLICATE_CAPACITY, scope: "shared" },
    supports: (feature) => options.models[feature.id] !== undefined,
    async availability(feature: Feature): Promise<ProviderAvailability> {
      return options.models[feature.id]
        ? { available: true }
        : { available: false, reason: "Replicate has no model for this feature here." };
    },
    run,
    async trainingStatus(identityId: string, signal?: AbortSignal): Promise<TrainingStatus> {
      const deadline = signal ?? AbortSignal.timeout(CANCEL_TIMEOUT_MS);
      const client = await clientFor(deadline);
      try {
        const training = await client.trainings.get(identityId, { signal: deadline });
        return { status: STATUS_OF[training.status] ?? "pending" };
      } catch (error) {
        throw await mapError(error, deadline, "Replicate could not be asked how the training goes.");
      }
    },
  };
}

/** `owner/name:version` runs that version; `owner/name` runs the official model's latest. */
function modelTarget(model: string): { version: string } | { model: `${string}/${string}` } {
  const [name, version] = model.split(":");
  if (version) return { version };
  if (!name || !/^[\w.-]+\/[\w.-]+$/.test(name)) {
    throw new ProviderError("unavailable", `The Replicate model "${model}" is not owner/name[:version].`);
  }
  return { model: name as `${string}/${string}` };
}

function trainerParts(model: string): [string, string, string] {
  const match = /^([\w.-]+)\/([\w.-]+):(\w+)$/.exec(model);
  if (!match) {
    throw new ProviderError("unavailable", `The Replicate trainer "${model}" must be owner/name:version.`);
  }
  return [match[1]!, match[2]!, match[3]!];
}

/** Replaces every Blob in an input by the URL `upload` gives it. */
async function uploadBlobs(value: unknown, upload: (blob: Blob) => Promise<string>): Promise<unknown> {
  if (value instanceof Blob) return upload(value);
  if (Array.isArray(value)) return Promise.all(value.map((item) => uploadBlobs(item, upload)));
  if (value !== null && typeof value === "object") {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await uploadBlobs(item, upload)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

function statusOf(error: unknown): number | undefined {
  const response = (error as { response?: { status?: unknown } } | null)?.response;
  return typeof response?.status === "number" ? response.status : undefined;
}

/**
 * The client's ApiError onto ours: 422 is Replicate's "invalid input" (its `detail` says which, and is
 * shown), 401/403/404 mean this deployment's token or model map is wrong, the rest failed.
 */
async function mapError(error: unknown, signal: AbortSignal, fallback: string): Promise<ProviderError> {
  if (error instanceof ProviderError) return error;
  const status = statusOf(error);
  if (status === undefined) return timeoutOr(error, signal, "Replicate is unreachable.");
  const message = error instanceof Error ? error.message : "";
  // The client puts the response text after the status line: "...failed with status 422 ...: {json}."
  const body = /: (\{[\s\S]*\})\.?$/.exec(message)?.[1];
  let detail: unknown;
  try {
    detail = body ? (JSON.parse(body) as { detail?: unknown }).detail : undefined;
  } catch {
    detail = undefined;
  }
  let mapped: ProviderError;
  if (status === 422 || status === 400) {
    mapped = new ProviderError("invalid-input", safeReason(detail, "The model provider refused the input."));
  } else if (status === 401 || status === 403) {
    mapped = new ProviderError("unavailable", "Replicate refused this deployment's API token.");
  } else if (status === 404) {
    mapped = new ProviderError("unavailable", "Replicate does not know the model this deployment asks for.");
  } else {
    mapped = new ProviderError("failed", `${fallback} (HTTP ${status})`);
  }
  mapped.cause = error;
  return mapped;
}

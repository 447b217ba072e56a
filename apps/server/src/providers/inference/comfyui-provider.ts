import { randomInt, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Feature } from "@prism/contract";
import { callValues } from "./call-values";
import { BUILTIN_WORKFLOWS, type ComfyWorkflow } from "./comfyui-workflows";
import {
  type FeatureProvider,
  type ProviderAvailability,
  ProviderError,
  type ProviderInput,
  type ProviderOutput,
} from "./feature-provider";
import type { ComfyModelEntry, ComfyModelMap } from "./model-map";
import {
  fetchResult,
  hostEntryOf,
  imageOutput,
  PROVIDER_TIMED_OUT,
  pause,
  safeReason,
  timeoutOr,
  untilAborted,
} from "./upstream";

/**
 * ComfyUI instances the operator runs (COMFYUI_URLS), used as one pool: each instance runs one prompt
 * at a time, so the pool's capacity is the number of instances and a call goes to the instance with
 * the fewest of this process's calls. Per call, from ComfyUI's server routes (server.py): the input
 * images go up with `POST /upload/image`, the feature's API-format workflow with our values filled in
 * goes to `POST /prompt` under our call id as `prompt_id`, `GET /history/{prompt_id}` says when it is
 * done, `GET /view` gives the result; a cancel removes the prompt from the queue (`POST /queue` with
 * `delete`) and stops it if it already runs (`POST /interrupt`). At start-up `GET /object_info` of
 * every instance is checked against every workflow, so a missing node or model stops the server with
 * a message naming it.
 */

export interface ComfyProviderOptions {
  urls: readonly string[];
  models: ComfyModelMap;
  pollIntervalMs?: number;
}

const PROBE_TIMEOUT_MS = 10_000;

export interface ComfyFeatureProvider extends FeatureProvider {
  readonly name: "comfyui";
  /** Checks every instance's nodes and models against the workflows; throws naming what is missing. */
  verify(): Promise<void>;
}

/** A workflow by name (`builtin:txt2img`) or the operator's file. */
export function loadWorkflow(reference: string): ComfyWorkflow {
  if (reference.startsWith("builtin:")) {
    const workflow = BUILTIN_WORKFLOWS[reference.slice("builtin:".length)];
    if (!workflow) throw new Error(`ComfyUI: there is no shipped workflow "${reference}".`);
    return workflow;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(reference, "utf8"));
  } catch (error) {
    throw new Error(`ComfyUI: the workflow ${reference} could not be read (${(error as Error).message}).`);
  }
  const valid =
    parsed !== null &&
    typeof parsed === "object" &&
    Object.values(parsed).every(
      (node) =>
        node !== null &&
        typeof node === "object" &&
        typeof (node as { class_type?: unknown }).class_type === "string",
    );
  if (!valid) throw new Error(`ComfyUI: ${reference} is not an API-format workflow ("Save (API Format)").`);
  return parsed as ComfyWorkflow;
}

export function createComfyProvider(options: ComfyProviderOptions): ComfyFeatureProvider {
  const instances = options.urls.map((url) => ({ url: url.replace(/\/+$/, ""), running: 0 }));
  if (instances.length === 0) throw new Error("COMFYUI_URLS: name at least one ComfyUI instance.");
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const workflows = new Map<string, ComfyWorkflow>();
  for (const [featureId, entry] of Object.entries(options.models)) {
    if (!entry) continue;
    const workflow = loadWorkflow(entry.workflow);
    for (const [value, targets] of Object.entries(entry.inputs)) {
      for (const [node, name] of targetsOf(targets)) {
        if (!workflow[node]) {
          throw new Error(
            `ComfyUI: the workflow of ${featureId} has no node ${node} for "${value}" (${name}).`,
          );
        }
      }
    }
    if (!workflow[entry.output])
      throw new Error(`ComfyUI: the workflow of ${featureId} has no output node ${entry.output}.`);
    workflows.set(featureId, workflow);
  }

  async function call(base: string, path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, { ...init, signal });
    } catch (error) {
      throw timeoutOr(error, signal, "The ComfyUI instance is unreachable.");
    }
  }

  async function upload(base: string, blob: Blob, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    const extension = blob.type === "image/jpeg" ? "jpg" : blob.type === "image/webp" ? "webp" : "png";
    form.append("image", blob, `prism-${randomUUID()}.${extension}`);
    form.append("type", "input");
    form.append("subfolder", "prism");
    form.append("overwrite", "true");
    const response = await call(base, "/upload/image", { method: "POST", body: form }, signal);
    if (!response.ok) {
      await response.body?.cancel();
      throw new ProviderError("failed", `ComfyUI refused the uploaded image (HTTP ${response.status}).`);
    }
    const answer = (await response.json()) as { name: string; subfolder?: string };
    return answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name;
  }

  /** The workflow with the call's values in the inputs the map names. */
  async function promptFor(
    base: string,
    entry: ComfyModelEntry,
    workflow: ComfyWorkflow,
    input: ProviderInput,
    signal: AbortSignal,
  ): Promise<ComfyWorkflow> {
    const prompt = structuredClone(workflow);
    const values = callValues(input);
    for (const [name, targets] of Object.entries(entry.inputs)) {
      let value = name === "seed" ? randomInt(0, 2 ** 32) : await values(name);
      if (value === undefined || value === null || value === "") continue;
      if (value instanceof Blob) value = await upload(base, value, signal);
      for (const [node, field] of targetsOf(targets)) prompt[node]!.inputs[field] = value;
    }
    return prompt;
  }

  async function stop(base: string, promptId: string): Promise<void> {
    const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    const json = { "content-type": "application/json" };
    await fetch(`${base}/queue`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ delete: [promptId] }),
      signal,
    })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
    const queue = await fetch(`${base}/queue`, { signal })
      .then((response) => response.json() as Promise<{ queue_running?: unknown[][] }>)
      .catch(() => ({ queue_running: [] as unknown[][] }));
    const running = (queue.queue_running ?? []).some((item) => Array.isArray(item) && item[1] === promptId);
    if (running) {
      await fetch(`${base}/interrupt`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ prompt_id: promptId }),
        signal,
      })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    }
  }

  async function run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
    const entry = options.models[feature.id];
    const workflow = workflows.get(feature.id);
    if (!entry || !workflow)
      throw new ProviderError("unavailable", "ComfyUI has no workflow for this feature here.");
    const instance = instances.reduce((best, candidate) =>
      candidate.running < best.running ? candidate : best,
    );
    instance.running += 1;
    const base = instance.url;
    const promptId = input.callId ?? randomUUID();
    let queued = false;
    try {
      const prompt = await promptFor(base, entry, workflow, input, signal);
      // The submission is not tied to the call's signal: a cancel that arrives while it is on its way
      // answers at once, and the prompt is removed or interrupted once ComfyUI has it.
      const posting = fetch(`${base}/prompt`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt, prompt_id: promptId, client_id: "prism" }),
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      let response: Response;
      try {
        response = await untilAborted(posting, signal);
      } catch (error) {
        if (signal.aborted) {
          posting
            .then((answer) => answer.body?.cancel())
            .catch(() => undefined)
            .finally(() => stop(base, promptId));
        }
        throw timeoutOr(error, signal, "The ComfyUI instance is unreachable.");
      }
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: { message?: unknown } };
        throw new ProviderError(
          "failed",
          `ComfyUI refused the workflow: ${safeReason(body.error?.message, `HTTP ${response.status}`)}`,
        );
      }
      await response.body?.cancel();
      queued = true;
      const outputs = await untilDone(base, promptId, signal);
      const image = (outputs[entry.output]?.images ?? [])[0];
      if (!image?.filename) throw new ProviderError("failed", "ComfyUI's workflow produced no image.");
      const query = new URLSearchParams({
        filename: image.filename,
        subfolder: image.subfolder ?? "",
        type: image.type ?? "output",
      });
      const { data } = await fetchResult(`${base}/view?${query}`, {
        allowedHosts: [hostEntryOf(base)],
        signal,
      });
      return await imageOutput(data);
    } catch (error) {
      if (signal.aborted) {
        if (queued) await stop(base, promptId);
        throw new ProviderError("timeout", PROVIDER_TIMED_OUT);
      }
      throw error;
    } finally {
      instance.running -= 1;
    }
  }

  type HistoryEntry = {
    status?: {
      status_str?: string;
      completed?: boolean;
      messages?: [string, { exception_message?: string }][];
    };
    outputs?: Record<string, { images?: { filename: string; subfolder?: string; type?: string }[] }>;
  };

  async function untilDone(
    base: string,
    promptId: string,
    signal: AbortSignal,
  ): Promise<NonNullable<HistoryEntry["outputs"]>> {
    for (;;) {
      const response = await call(base, `/history/${encodeURIComponent(promptId)}`, {}, signal);
      const history = response.ok ? ((await response.json()) as Record<string, HistoryEntry>) : {};
      const entry = history[promptId];
      if (entry?.status?.status_str === "error") {
        const failure = entry.status.messages?.find(([kind]) => kind === "execution_error")?.[1];
        throw new ProviderError(
          "failed",
          safeReason(failure?.exception_message, "The ComfyUI workflow failed."),
        );
      }
      if (entry?.status?.completed) return entry.outputs ?? {};
      await pause(pollIntervalMs, signal);
    }
  }

  return {
    name: "comfyui",
    capacity: { slots: instances.length, scope: "shared" },
    supports: (feature) => workflows.has(feature.id),
    async availability(feature: Feature): Promise<ProviderAvailability> {
      return workflows.has(feature.id)
        ? { available: true }
        : { available: false, reason: "ComfyUI has no workflow for this feature here." };
    },
    run,
    async verify(): Promise<void> {
      const problems: string[] = [];
      for (const { url } of instances) {
        let info: Record<string, { input?: Record<string, Record<string, unknown>> }>;
        try {
          const response = await fetch(`${url}/object_info`, {
            signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          info = (await response.json()) as typeof info;
        } catch (error) {
          problems.push(`${url} did not answer /object_info (${(error as Error).message})`);
          continue;
        }
        for (const [featureId, workflow] of workflows) {
          for (const [nodeId, node] of Object.entries(workflow)) {
            const definition = info[node.class_type];
            if (!definition) {
              problems.push(
                `${url} has no node ${node.class_type} (node ${nodeId} of the ${featureId} workflow)`,
              );
              continue;
            }
            const specs = { ...definition.input?.required, ...definition.input?.optional };
            for (const [field, value] of Object.entries(node.inputs)) {
              const choices = (specs[field] as unknown[] | undefined)?.[0];
              // A list input (a model file, a sampler name) must name one the instance has; an image
              // input is filled per call and not checked here.
              if (
                !Array.isArray(choices) ||
                typeof value !== "string" ||
                value === "" ||
                node.class_type === "LoadImage"
              ) {
                continue;
              }
              if (!choices.includes(value)) {
                problems.push(
                  `${url} has no ${field} "${value}" for ${node.class_type} (node ${nodeId} of the ${featureId} workflow)`,
                );
              }
            }
          }
        }
      }
      if (problems.length > 0) throw new Error(`ComfyUI is not ready: ${problems.join("; ")}.`);
    },
  };
}

function targetsOf(targets: [string, string] | [string, string][]): [string, string][] {
  return Array.isArray(targets[0]) ? (targets as [string, string][]) : [targets as [string, string]];
}

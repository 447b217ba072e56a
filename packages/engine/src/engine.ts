import { createRequire } from "node:module";
import { EngineError, isEngineErrorCode } from "./errors";
import type { ImageResult } from "./features/feature";
import type { UpscalePlan } from "./features/upscaling";
import { createWorkerPool, DEFAULT_JOB_TIMEOUT_MS, defaultWorkerCount } from "./pool";
import type { AvailabilityReport, EngineOutput, FeatureId, FeatureInputs, WorkerResult } from "./types";
import { isFeatureId } from "./types";
import type { StepResult, WorkerRequest } from "./worker";

export interface EngineOptions {
  /** Worker threads; defaults to the machine's available parallelism. */
  workers?: number;
  /** Longest one job may run before its worker is killed and replaced (default 120 s). */
  jobTimeoutMs?: number;
}

export interface RunFeatureOptions {
  /** Cancels the job; a running job's worker is killed and replaced. */
  signal?: AbortSignal;
  /** Overrides the engine's `jobTimeoutMs` for this job (upscaling a large image takes minutes). */
  timeoutMs?: number;
}

export interface Engine {
  /** How many jobs it runs at once (its worker threads). */
  readonly workers: number;
  /** Which features can run on this machine, with a reason for each one that cannot. Cached. */
  availability(): Promise<AvailabilityReport>;
  run<F extends FeatureId>(
    feature: F,
    input: FeatureInputs[F],
    options?: RunFeatureOptions,
  ): Promise<EngineOutput>;
  close(): Promise<void>;
}

// Resolved through the package's own exports, not relative to this module: the server bundles this
// file into its dist, while worker threads must still load the entry from the package.
const WORKER_FILE = createRequire(import.meta.url).resolve("@prism/engine/worker-entry");

/** Which inputs must be bytes, per feature; the rest of an input is the feature's parsed fields. */
const REQUIRED_FILES: Record<FeatureId, readonly string[]> = {
  "object-removal": ["image", "mask"],
  "image-extension": ["image"],
  "image-background-removal": ["image"],
  "image-upscaling": ["image"],
  "text-removal": ["image"],
  "face-swapping": ["source", "target"],
  "speech-to-text": ["audio"],
};

export function createEngine(options: EngineOptions = {}): Engine {
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const workers = options.workers ?? defaultWorkerCount();
  const pool = createWorkerPool({ filename: WORKER_FILE, workers, jobTimeoutMs });
  let availabilityReport: Promise<AvailabilityReport> | undefined;

  function availability(): Promise<AvailabilityReport> {
    availabilityReport ??= pool.run<AvailabilityReport>({ availability: true }).catch((error: unknown) => {
      availabilityReport = undefined;
      throw error;
    });
    return availabilityReport;
  }

  async function run<F extends FeatureId>(
    feature: F,
    input: FeatureInputs[F],
    runOptions: RunFeatureOptions = {},
  ): Promise<EngineOutput> {
    if (!isFeatureId(feature)) {
      throw new EngineError("unavailable", `The builtin engine has no feature ${String(feature)}.`);
    }
    const payload: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input as object)) {
      payload[key] = value instanceof Uint8Array ? exactBytes(value) : value;
    }
    for (const name of REQUIRED_FILES[feature]) {
      if (!(payload[name] instanceof Uint8Array) || (payload[name] as Uint8Array).length === 0) {
        throw new EngineError("invalid-input", `The ${name} file is missing.`);
      }
    }
    const result =
      feature === "image-upscaling"
        ? await runSpread(payload.image as Uint8Array, runOptions)
        : await pool.run<WorkerResult>(
            { feature, input: payload },
            { signal: runOptions.signal, timeoutMs: runOptions.timeoutMs },
          );
    if (!result.ok) {
      throw new EngineError(isEngineErrorCode(result.code) ? result.code : "internal", result.message);
    }
    const output = result.output;
    if (output.kind === "image") {
      return {
        kind: "image",
        png: Buffer.from(output.png.buffer, output.png.byteOffset, output.png.length),
        width: output.width,
        height: output.height,
      };
    }
    return output;
  }

  /**
   * Upscaling runs its tiles as separate pool jobs, so one image uses every worker (the WebAssembly
   * backend uses a single core each). The deadline covers the whole job, not each tile.
   */
  async function runSpread(image: Uint8Array, runOptions: RunFeatureOptions): Promise<WorkerResult> {
    const { signal } = runOptions;
    const limitMs = runOptions.timeoutMs ?? jobTimeoutMs;
    const deadline = AbortSignal.timeout(limitMs);
    const jobSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const step = async <T>(request: WorkerRequest): Promise<T> => {
      const result = await pool
        .run<StepResult>(request, { signal: jobSignal, timeoutMs: limitMs })
        .catch((error: unknown) => {
          if (deadline.aborted) {
            throw new EngineError("timeout", `The job took longer than ${limitMs} ms and was stopped.`);
          }
          throw error;
        });
      if (!result.ok) {
        throw new EngineError(isEngineErrorCode(result.code) ? result.code : "internal", result.message);
      }
      return result.value as T;
    };
    try {
      const plan = await step<UpscalePlan>({ step: "upscale-plan", image });
      const scaled = await Promise.all(
        plan.tiles.map(({ tile, rgb }) =>
          step<Uint8Array>({ step: "upscale-tile", rgb, width: tile.width, height: tile.height }),
        ),
      );
      const tiles = plan.tiles.map((entry, i) => ({ tile: entry.tile, rgb: scaled[i]! }));
      const output = await step<ImageResult>({ step: "upscale-join", plan: { ...plan, tiles } });
      return { ok: true, output };
    } catch (error) {
      if (error instanceof EngineError) {
        return { ok: false, code: error.code, message: error.message };
      }
      throw error;
    }
  }

  return { workers, availability, run, close: () => pool.close() };
}

/**
 * Structured cloning copies a view's whole backing buffer, and Node's small Buffers share an 8 KiB pool,
 * so a view is narrowed to its own bytes before it crosses into a worker.
 */
function exactBytes(view: Uint8Array): Uint8Array {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view : view.slice();
}

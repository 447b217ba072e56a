import { EngineError } from "./errors";
import type { FeatureResult } from "./features/feature";
import { loadFeature } from "./features/registry";
import type { UpscalePlan } from "./features/upscaling";
import type { AvailabilityReport, FeatureId, FeatureInputs, WorkerResult, WorkerTask } from "./types";
import { FEATURE_IDS } from "./types";

/**
 * What a worker can be asked: a whole feature job, the availability report, or one step of a job the
 * engine spreads over several workers (upscaling: plan the tiles, upscale one tile, join them).
 */
export type WorkerRequest =
  | WorkerTask
  | { availability: true }
  | { step: "upscale-plan"; image: Uint8Array }
  | { step: "upscale-tile"; rgb: Uint8Array; width: number; height: number }
  | { step: "upscale-join"; plan: UpscalePlan };

export type StepResult = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** The pool's entry: runs one feature job, or reports which features can run on this machine. */
export async function runTask(
  request: WorkerRequest,
): Promise<WorkerResult | AvailabilityReport | StepResult> {
  if ("availability" in request) {
    return checkAvailability();
  }
  if ("step" in request) {
    return runStep(request).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => toFailure(error),
    );
  }
  try {
    const feature = await loadFeature(request.feature);
    if (!feature) {
      throw new EngineError("unavailable", `The builtin engine does not implement ${request.feature}.`);
    }
    const availability = await feature.checkAvailability();
    if (!availability.available) {
      throw new EngineError("unavailable", availability.reason ?? `${request.feature} is unavailable.`);
    }
    // The engine checked the input's files for this feature before queueing the job.
    const run = feature.run as (input: FeatureInputs[FeatureId]) => Promise<FeatureResult>;
    const output = await run(request.input as unknown as FeatureInputs[FeatureId]);
    return { ok: true, output };
  } catch (error) {
    return toFailure(error);
  }
}

function toFailure(error: unknown): { ok: false; code: string; message: string } {
  if (error instanceof EngineError) {
    return { ok: false, code: error.code, message: error.message };
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { ok: false, code: "internal", message };
}

async function runStep(request: Extract<WorkerRequest, { step: string }>): Promise<unknown> {
  const upscaling = await import("./features/upscaling");
  switch (request.step) {
    case "upscale-plan": {
      const availability = await upscaling.upscaling.checkAvailability();
      if (!availability.available) {
        throw new EngineError("unavailable", availability.reason ?? "Upscaling is unavailable.");
      }
      return upscaling.planUpscale(request.image);
    }
    case "upscale-tile":
      return upscaling.upscaleTile(request.rgb, request.width, request.height);
    case "upscale-join":
      return upscaling.joinUpscale(request.plan);
  }
}

async function checkAvailability(): Promise<AvailabilityReport> {
  const entries = await Promise.all(
    FEATURE_IDS.map(async (id) => {
      try {
        const feature = await loadFeature(id);
        if (!feature) {
          return [id, { available: false, reason: "Not implemented by the builtin engine." }] as const;
        }
        return [id, await feature.checkAvailability()] as const;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return [id, { available: false, reason }] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as AvailabilityReport;
}

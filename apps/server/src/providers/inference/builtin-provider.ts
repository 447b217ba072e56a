import type { Feature } from "@prism/contract";
import { type Engine, EngineError, type FeatureId, isFeatureId } from "@prism/engine";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderInput,
  type ProviderOutput,
} from "./feature-provider";

function only(input: ProviderInput, field: string): Uint8Array | undefined {
  return input.files[field]?.[0]?.buffer;
}

/** Maps an engine failure onto the gateway's: the caller's fault, the machine's, or a plain failure. */
function toProviderError(error: unknown): ProviderError {
  if (error instanceof EngineError) {
    if (error.code === "no-face" || error.code === "invalid-input")
      return new ProviderError("invalid-input", error.message);
    if (error.code === "timeout" || error.code === "aborted")
      return new ProviderError("timeout", error.message);
    if (error.code === "unavailable") return new ProviderError("unavailable", error.message);
  }
  return new ProviderError("failed", "The image could not be processed.");
}

/**
 * The builtin CPU engine (packages/engine), run in worker threads: real results for the features a
 * CPU can honestly do; the others are not supported here.
 */
export function createBuiltinProvider(engine: Engine): FeatureProvider {
  return {
    name: "builtin",
    // The engine's threads are this process's own: each process runs as many builtin calls at once.
    capacity: { slots: engine.workers, scope: "process" },
    supports: (feature) => isFeatureId(feature.id),
    async availability(feature: Feature) {
      if (!isFeatureId(feature.id))
        return { available: false, reason: "The builtin engine does not implement this feature." };
      const report = await engine.availability();
      const entry = report[feature.id as FeatureId];
      return entry.available
        ? { available: true }
        : { available: false, reason: entry.reason ?? "Unavailable on this machine." };
    },
    async run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
      const id = feature.id as FeatureId;
      const inputs: Record<string, unknown> = { ...input.body };
      for (const [field, files] of Object.entries(input.files)) {
        const first = files[0];
        if (first) inputs[field] = first.buffer;
      }
      if (!only(input, feature.inputs.files[0]?.name ?? ""))
        throw new ProviderError("invalid-input", "A file is missing.");
      try {
        const output = await engine.run(id, inputs as never, { signal });
        if (output.kind === "image") {
          return { kind: "image", data: output.png, mimeType: "image/png", encodedHere: true };
        }
        return { kind: "json", body: output.body };
      } catch (error) {
        throw toProviderError(error);
      }
    },
    close: () => engine.close(),
  };
}

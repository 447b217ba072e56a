import type { FeatureId } from "../types";
import type { Feature } from "./feature";

type AnyFeature = { [F in FeatureId]: Feature<F> }[FeatureId];

/**
 * Feature modules load on first use, so a worker only pays (in memory and start-up time) for the models
 * of the features it has actually run; each module keeps its models warm for the worker's lifetime.
 */
const LOADERS: Record<FeatureId, () => Promise<AnyFeature>> = {
  "object-removal": async () => (await import("./object-removal")).objectRemoval,
  "image-extension": async () => (await import("./image-extension")).imageExtension,
  "image-background-removal": async () => (await import("./background-removal")).backgroundRemoval,
  "image-upscaling": async () => (await import("./upscaling")).upscaling,
  "text-removal": async () => (await import("./text-removal")).textRemoval,
  "speech-to-text": async () => (await import("./speech-to-text")).speechToText,
  "face-swapping": async () => (await import("./face-swapping")).faceSwapping,
};

/** Undefined for an id the engine does not implement (callers may pass any string at run time). */
export function loadFeature(id: FeatureId): Promise<AnyFeature> | undefined {
  return Object.hasOwn(LOADERS, id) ? LOADERS[id]() : undefined;
}

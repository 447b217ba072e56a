import type { FeatureAvailability, FeatureId, FeatureInputs, JsonOutput } from "../types";

export interface ImageResult {
  kind: "image";
  png: Uint8Array;
  width: number;
  height: number;
}

export type FeatureResult = ImageResult | JsonOutput;

/** One builtin feature: what it needs to run here, and the work itself (run inside a worker). */
export interface Feature<F extends FeatureId> {
  id: F;
  /** Cheap checks (packages, model files, binaries) without loading any model. */
  checkAvailability(): Promise<FeatureAvailability>;
  run(input: FeatureInputs[F]): Promise<FeatureResult>;
}

export type { Engine, EngineOptions, RunFeatureOptions } from "./engine";
export { createEngine } from "./engine";
export type { EngineErrorCode } from "./errors";
export { ENGINE_ERROR_CODES, EngineError } from "./errors";
export type {
  AvailabilityReport,
  EngineOutput,
  FeatureAvailability,
  FeatureId,
  FeatureInputs,
  ImageOutput,
  JsonOutput,
} from "./types";
export { FEATURE_IDS, isFeatureId, TRANSCRIPTION_LANGUAGES } from "./types";

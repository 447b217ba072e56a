import { createRequire } from "node:module";
import type { InferenceSession } from "onnxruntime-common";
import { intraOpThreads } from "./threads";

/** onnxruntime-node ships no type declarations of its own; its API is onnxruntime-common's. */
export function loadOnnxRuntime(): typeof import("onnxruntime-common") {
  return createRequire(import.meta.url)("onnxruntime-node") as typeof import("onnxruntime-common");
}

export function createSession(model: Uint8Array | string): Promise<InferenceSession> {
  const ort = loadOnnxRuntime();
  const options: InferenceSession.SessionOptions = {
    graphOptimizationLevel: "all",
    intraOpNumThreads: intraOpThreads(),
    interOpNumThreads: 1,
  };
  return typeof model === "string"
    ? ort.InferenceSession.create(model, options)
    : ort.InferenceSession.create(model, options);
}

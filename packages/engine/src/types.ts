import type { TranscriptionResult } from "@prism/contract";

/** The builtin features, named by the contract catalog's feature ids. */
export const FEATURE_IDS = [
  "object-removal",
  "image-extension",
  "image-background-removal",
  "image-upscaling",
  "text-removal",
  "face-swapping",
  "speech-to-text",
] as const;

export type FeatureId = (typeof FEATURE_IDS)[number];

/** The languages `speech-to-text` transcribes here: CMU Sphinx's US English model only. */
export const TRANSCRIPTION_LANGUAGES = ["en"] as const;

/** Images arrive encoded (PNG, JPEG or WebP, as uploaded); workers decode them. */
export type EncodedImage = Uint8Array;

/** Each feature's input: the catalog's multipart file names and parsed body fields. */
export interface FeatureInputs {
  "object-removal": { image: EncodedImage; mask: EncodedImage };
  "image-extension": { image: EncodedImage; top: number; bottom: number; left: number; right: number };
  "image-background-removal": { image: EncodedImage };
  "image-upscaling": { image: EncodedImage };
  "text-removal": { image: EncodedImage; fast_mode?: boolean };
  "face-swapping": { source: EncodedImage; target: EncodedImage; mask?: EncodedImage };
  /** Audio as uploaded (mp3, ogg, flac, wav) or raw 16 kHz 16-bit mono little-endian PCM. */
  "speech-to-text": { audio: Uint8Array; language?: string };
}

export interface ImageOutput {
  kind: "image";
  png: Buffer;
  width: number;
  height: number;
}

/** A result that is data, not an image: the builtin engine's only one is a transcription. */
export interface JsonOutput {
  kind: "json";
  body: TranscriptionResult;
}

export type EngineOutput = ImageOutput | JsonOutput;

export interface FeatureAvailability {
  available: boolean;
  /** Why the feature cannot run here; absent when it can. */
  reason?: string;
}

export type AvailabilityReport = Record<FeatureId, FeatureAvailability>;

/** One job as it crosses into a worker. */
export interface WorkerTask {
  feature: FeatureId;
  input: Record<string, unknown>;
}

/** Workers answer with data only: errors are returned, not thrown, so their code survives the thread hop. */
export type WorkerResult =
  | { ok: true; output: { kind: "image"; png: Uint8Array; width: number; height: number } | JsonOutput }
  | { ok: false; code: string; message: string };

export function isFeatureId(value: unknown): value is FeatureId {
  return typeof value === "string" && (FEATURE_IDS as readonly string[]).includes(value);
}

// Generated from packages/contract by `npm run generate -w @prism/sdk`; do not edit.
// contract.generated.test.ts fails when this file is stale.
import type { CallOptions, FeatureResult, FileInput } from "./types.js";

export const ERROR_STATUS = {
  "invalid-input": 400,
  "malformed-json": 400,
  "user-not-found": 400,
  "user-already-exists": 400,
  "user-already-active": 400,
  "verification-code-not-found": 400,
  "invalid-verification-code": 400,
  "invalid-reset-code": 400,
  "email-credentials-not-found": 400,
  "invitation-invalid": 400,
  "invalid-two-factor-code": 400,
  "passkey-verification-failed": 400,
  "invalid-password": 400,
  unauthenticated: 401,
  "invalid-credentials": 401,
  "invalid-api-key": 401,
  "api-key-expired": 401,
  "two-factor-required": 401,
  "two-factor-sign-in-expired": 401,
  "passkey-not-recognised": 401,
  "insufficient-balance": 402,
  "payment-method-required": 402,
  "card-declined": 402,
  "payment-failed": 402,
  "first-deposit-required": 402,
  "key-spend-cap-reached": 402,
  "budget-reached": 402,
  forbidden: 403,
  "csrf-rejected": 403,
  "user-not-active": 403,
  "key-feature-not-allowed": 403,
  "ip-not-allowed": 403,
  "two-factor-enrolment-required": 403,
  "reauthentication-required": 403,
  "not-found": 404,
  "route-not-found": 404,
  "last-organization": 409,
  "owner-cannot-leave": 409,
  "owner-immutable": 409,
  "last-project": 409,
  "already-member": 409,
  "identity-not-ready": 409,
  "idempotency-in-progress": 409,
  "request-canceled": 409,
  "request-ended": 409,
  "two-factor-already-enabled": 409,
  "two-factor-not-enabled": 409,
  "method-not-allowed": 405,
  "payload-too-large": 413,
  "file-too-large": 413,
  "image-dimensions-exceeded": 413,
  "audio-too-long": 413,
  "unsupported-media-type": 415,
  "unsupported-file-type": 415,
  "unprocessable-input": 422,
  "unreadable-file": 422,
  "idempotency-key-reused": 422,
  "rate-limited": 429,
  "recaptcha-failed": 491,
  "internal-error": 500,
  "feature-failed": 502,
  "feature-unavailable": 503,
  "payment-unconfirmed": 502,
  "feature-timeout": 504,
  "service-unavailable": 503,
} as const;
/** Every error code the API answers with (the error body's `error`). */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A call's state: waiting for a slot, running, then one of the three ends. */
export const CALL_STATES = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export type CallState = (typeof CALL_STATES)[number];
export const CALL_WEBHOOK_EVENTS = ["start", "completed"] as const;
export type CallWebhookEvent = (typeof CALL_WEBHOOK_EVENTS)[number];

export const REQUEST_DETAIL_PATH = "/v1/requests/{id}";
export const REQUEST_CANCEL_PATH = "/v1/requests/{id}/cancel";
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";
export const PREFER_HEADER = "prefer";
export const PREFER_WAIT_MAX_SECONDS = 60;

/** The feature calls: endpoint, multipart file and text fields, headers given as input properties. */
export const FEATURES = [
  {
    id: "image-generation",
    method: "imageGeneration",
    name: "Image Generation",
    endpoint: "/v1/images/generation",
    files: [],
    fields: ["prompt", "negative_prompt", "width", "height"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "pegasus-generation",
    method: "pegasusGeneration",
    name: "Pegasus Generation",
    endpoint: "/v1/images/pegasus-generation",
    files: [],
    fields: ["prompt", "width", "height", "identity_id", "artistic"],
    headers: {
      identityRequestId: "x-authorization-identity-request-id",
    },
    asynchronous: false,
  },
  {
    id: "pegasus-training",
    method: "pegasusTraining",
    name: "AI Clone Training",
    endpoint: "/v1/images/pegasus-training",
    files: ["images"],
    fields: ["description"],
    headers: {},
    asynchronous: true,
  },
  {
    id: "generative-fill",
    method: "generativeFill",
    name: "Generative Fill",
    endpoint: "/v1/images/generative-fill",
    files: ["image", "mask"],
    fields: ["prompt", "denoise", "cfg"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "object-removal",
    method: "objectRemoval",
    name: "Object Removal",
    endpoint: "/v1/images/object-removal",
    files: ["image", "mask"],
    fields: [],
    headers: {},
    asynchronous: false,
  },
  {
    id: "text-removal",
    method: "textRemoval",
    name: "Text Removal",
    endpoint: "/v1/images/text-removal",
    files: ["image"],
    fields: ["fast_mode"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "image-extension",
    method: "imageExtension",
    name: "Image Extension",
    endpoint: "/v1/images/extension",
    files: ["image"],
    fields: ["top", "bottom", "left", "right"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "image-background-removal",
    method: "imageBackgroundRemoval",
    name: "Background Removal",
    endpoint: "/v1/images/background-removal",
    files: ["image"],
    fields: [],
    headers: {},
    asynchronous: false,
  },
  {
    id: "image-upscaling",
    method: "imageUpscaling",
    name: "Image Upscaling",
    endpoint: "/v1/images/upscaling",
    files: ["image"],
    fields: [],
    headers: {},
    asynchronous: false,
  },
  {
    id: "speech-to-text",
    method: "speechToText",
    name: "Speech to Text",
    endpoint: "/v1/speech/transcription",
    files: ["audio"],
    fields: ["language"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "face-swapping",
    method: "faceSwapping",
    name: "Face Swapping",
    endpoint: "/v1/images/face-swapping",
    files: ["source", "target", "mask"],
    fields: [],
    headers: {},
    asynchronous: false,
  },
  {
    id: "reimagine",
    method: "reimagine",
    name: "Reimagine",
    endpoint: "/v1/images/reimagine",
    files: ["image", "mask"],
    fields: ["denoise"],
    headers: {},
    asynchronous: false,
  },
  {
    id: "identity-inpainting",
    method: "identityInpainting",
    name: "Identity Inpainting",
    endpoint: "/v1/images/identity-inpainting",
    files: ["image", "mask"],
    fields: ["identity_id", "artistic", "prompt"],
    headers: {
      identityRequestId: "x-authorization-identity-request-id",
    },
    asynchronous: false,
  },
] as const;
export type FeatureId = (typeof FEATURES)[number]["id"];

/** The input of Image Generation (`POST /v1/images/generation`). */
export interface ImageGenerationInput {
  /**
   * What the image should show.
   * At most 1000 characters.
   */
  prompt: string;
  /**
   * What the image should not show.
   * At most 1000 characters.
   */
  negative_prompt?: string;
  /**
   * Output width in pixels.
   * 256 to 2048, a whole number, default 1024.
   */
  width?: number;
  /**
   * Output height in pixels.
   * 256 to 2048, a whole number, default 1024.
   */
  height?: number;
}

/** The input of Pegasus Generation (`POST /v1/images/pegasus-generation`). */
export interface PegasusGenerationInput {
  /**
   * What the image should show.
   * At most 1000 characters.
   */
  prompt: string;
  /**
   * Output width in pixels.
   * 256 to 2048, a whole number, default 1024.
   */
  width?: number;
  /**
   * Output height in pixels.
   * 256 to 2048, a whole number, default 1024.
   */
  height?: number;
  /**
   * The AI Clone to feature (its identity_id); needs the identity request header.
   * At most 100 characters.
   */
  identity_id?: string;
  /**
   * Use the artistic checkpoint instead of the photographic one.
   * Default false.
   */
  artistic?: boolean;
  /**
   * The request id of the AI Clone's training (the clone's `id` in get-trained-identities).
   * Required with `identity_id`.
   * Sent as the `x-authorization-identity-request-id` header.
   */
  identityRequestId?: string;
}

/** The input of AI Clone Training (`POST /v1/images/pegasus-training`). */
export interface PegasusTrainingInput {
  /**
   * Photos of the person, each resized so its short side is 1024 px.
   * 10 to 15 files, .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  images: readonly FileInput[];
  /**
   * The AI Clone's name.
   * At most 100 characters.
   */
  description: string;
}

/** The input of Generative Fill (`POST /v1/images/generative-fill`). */
export interface GenerativeFillInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * White where the image should change, black elsewhere, same size as the image.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  mask: FileInput;
  /**
   * What the image should show.
   * At most 1000 characters.
   */
  prompt?: string;
  /**
   * How far the result may move away from the original (higher changes more).
   * 0.5 to 1, default 0.7.
   * Outside production only (a production server refuses it).
   */
  denoise?: number;
  /**
   * How strictly the result follows the prompt.
   * 1 to 100, default 46.
   * Outside production only (a production server refuses it).
   */
  cfg?: number;
}

/** The input of Object Removal (`POST /v1/images/object-removal`). */
export interface ObjectRemovalInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * White where the image should change, black elsewhere, same size as the image.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  mask: FileInput;
}

/** The input of Text Removal (`POST /v1/images/text-removal`). */
export interface TextRemovalInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * Trade quality for speed.
   * Default false.
   * Outside production only (a production server refuses it).
   */
  fast_mode?: boolean;
}

/** The input of Image Extension (`POST /v1/images/extension`). */
export interface ImageExtensionInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * Pixels to add on the top.
   * 0 to 4096, a whole number, default 0.
   */
  top?: number;
  /**
   * Pixels to add on the bottom.
   * 0 to 4096, a whole number, default 0.
   */
  bottom?: number;
  /**
   * Pixels to add on the left.
   * 0 to 4096, a whole number, default 0.
   */
  left?: number;
  /**
   * Pixels to add on the right.
   * 0 to 4096, a whole number, default 0.
   */
  right?: number;
}

/** The input of Background Removal (`POST /v1/images/background-removal`). */
export interface ImageBackgroundRemovalInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
}

/** The input of Image Upscaling (`POST /v1/images/upscaling`). */
export interface ImageUpscalingInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
}

/** The input of Speech to Text (`POST /v1/speech/transcription`). */
export interface SpeechToTextInput {
  /**
   * The recording to transcribe.
   * .mp3, .wav, .ogg, .flac, at most 20 MB each.
   */
  audio: FileInput;
  /**
   * The spoken language.
   * Default "en".
   */
  language?:
    | "en"
    | "zh"
    | "de"
    | "es"
    | "ru"
    | "ko"
    | "fr"
    | "ja"
    | "pt"
    | "tr"
    | "pl"
    | "ca"
    | "nl"
    | "ar"
    | "sv"
    | "it"
    | "id"
    | "hi"
    | "fi"
    | "vi"
    | "he"
    | "uk"
    | "el"
    | "ms"
    | "cs"
    | "ro"
    | "da"
    | "hu"
    | "ta"
    | "no"
    | "th"
    | "ur"
    | "hr"
    | "bg"
    | "lt"
    | "la"
    | "mi"
    | "ml"
    | "cy"
    | "sk"
    | "te"
    | "fa"
    | "lv"
    | "bn"
    | "sr"
    | "az"
    | "sl"
    | "kn"
    | "et"
    | "mk"
    | "br"
    | "eu"
    | "is"
    | "hy"
    | "ne"
    | "mn"
    | "bs"
    | "kk"
    | "sq"
    | "sw"
    | "gl"
    | "mr"
    | "pa"
    | "si"
    | "km"
    | "sn"
    | "yo"
    | "so"
    | "af"
    | "oc"
    | "ka"
    | "be"
    | "tg"
    | "sd"
    | "gu"
    | "am"
    | "yi"
    | "lo"
    | "uz"
    | "fo"
    | "ht"
    | "ps"
    | "tk"
    | "nn"
    | "mt"
    | "sa"
    | "lb"
    | "my"
    | "bo"
    | "tl"
    | "mg"
    | "as"
    | "tt"
    | "haw"
    | "ln"
    | "ha"
    | "ba"
    | "jw"
    | "su"
    | "yue";
}

/** The input of Face Swapping (`POST /v1/images/face-swapping`). */
export interface FaceSwappingInput {
  /**
   * The image with the face to use.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  source: FileInput;
  /**
   * The image with the face to replace.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  target: FileInput;
  /**
   * Optional: where on the target the face may change.
   * Optional, .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  mask?: FileInput;
}

/** The input of Reimagine (`POST /v1/images/reimagine`). */
export interface ReimagineInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * Optional, outside production only: the area to change.
   * Optional, .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  mask?: FileInput;
  /**
   * How far the result may move away from the original (higher changes more).
   * 0.5 to 1, default 0.7.
   */
  denoise?: number;
}

/** The input of Identity Inpainting (`POST /v1/images/identity-inpainting`). */
export interface IdentityInpaintingInput {
  /**
   * The image to work on.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  image: FileInput;
  /**
   * White where the image should change, black elsewhere, same size as the image.
   * .jpg, .jpeg, .png, .webp, at most 30 MB each.
   */
  mask: FileInput;
  /**
   * The AI Clone to paint in (its identity_id).
   * At most 100 characters.
   */
  identity_id: string;
  /**
   * Use the artistic checkpoint instead of the photographic one.
   * Default false.
   */
  artistic?: boolean;
  /**
   * What the image should show.
   * At most 1000 characters.
   */
  prompt?: string;
  /**
   * The request id of the AI Clone's training (the clone's `id` in get-trained-identities).
   * Sent as the `x-authorization-identity-request-id` header.
   */
  identityRequestId: string;
}

/** Each feature's input by its id. */
export interface FeatureInputs {
  "image-generation": ImageGenerationInput;
  "pegasus-generation": PegasusGenerationInput;
  "pegasus-training": PegasusTrainingInput;
  "generative-fill": GenerativeFillInput;
  "object-removal": ObjectRemovalInput;
  "text-removal": TextRemovalInput;
  "image-extension": ImageExtensionInput;
  "image-background-removal": ImageBackgroundRemovalInput;
  "image-upscaling": ImageUpscalingInput;
  "speech-to-text": SpeechToTextInput;
  "face-swapping": FaceSwappingInput;
  reimagine: ReimagineInput;
  "identity-inpainting": IdentityInpaintingInput;
}

/** One method per feature; the client implements `call`. */
export abstract class FeatureMethods {
  protected abstract call<F extends FeatureId>(
    feature: F,
    input: FeatureInputs[F],
    options?: CallOptions,
  ): Promise<FeatureResult<F>>;

  /**
   * Image Generation: Creates an image from a text prompt, optionally steered away from a negative prompt.
   * `POST /v1/images/generation`; waits for the result.
   */
  imageGeneration(
    input: ImageGenerationInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"image-generation">> {
    return this.call("image-generation", input, options);
  }

  /**
   * Pegasus Generation: Creates an image from a text prompt with the Pegasus model, optionally featuring a trained AI Clone.
   * `POST /v1/images/pegasus-generation`; waits for the result.
   */
  pegasusGeneration(
    input: PegasusGenerationInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"pegasus-generation">> {
    return this.call("pegasus-generation", input, options);
  }

  /**
   * AI Clone Training: Trains an AI Clone of a person from 10 to 15 photos; training takes 30 minutes or more.
   * `POST /v1/images/pegasus-training`; waits for the result.
   */
  pegasusTraining(
    input: PegasusTrainingInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"pegasus-training">> {
    return this.call("pegasus-training", input, options);
  }

  /**
   * Generative Fill: Repaints the masked area of an image following a prompt.
   * `POST /v1/images/generative-fill`; waits for the result.
   */
  generativeFill(
    input: GenerativeFillInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"generative-fill">> {
    return this.call("generative-fill", input, options);
  }

  /**
   * Object Removal: Removes the masked object from an image and fills the gap with matching surroundings.
   * `POST /v1/images/object-removal`; waits for the result.
   */
  objectRemoval(input: ObjectRemovalInput, options?: CallOptions): Promise<FeatureResult<"object-removal">> {
    return this.call("object-removal", input, options);
  }

  /**
   * Text Removal: Finds the text in an image and paints it out.
   * `POST /v1/images/text-removal`; waits for the result.
   */
  textRemoval(input: TextRemovalInput, options?: CallOptions): Promise<FeatureResult<"text-removal">> {
    return this.call("text-removal", input, options);
  }

  /**
   * Image Extension: Extends an image beyond its borders; no side of the result may exceed 4096 px.
   * `POST /v1/images/extension`; waits for the result.
   */
  imageExtension(
    input: ImageExtensionInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"image-extension">> {
    return this.call("image-extension", input, options);
  }

  /**
   * Background Removal: Cuts the main subject out of an image onto a transparent background.
   * `POST /v1/images/background-removal`; waits for the result.
   */
  imageBackgroundRemoval(
    input: ImageBackgroundRemovalInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"image-background-removal">> {
    return this.call("image-background-removal", input, options);
  }

  /**
   * Image Upscaling: Enlarges an image of up to 4 megapixels while keeping it sharp.
   * `POST /v1/images/upscaling`; waits for the result.
   */
  imageUpscaling(
    input: ImageUpscalingInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"image-upscaling">> {
    return this.call("image-upscaling", input, options);
  }

  /**
   * Speech to Text: Transcribes speech in an audio file of up to 5 minutes into timed text segments.
   * `POST /v1/speech/transcription`; waits for the result.
   */
  speechToText(input: SpeechToTextInput, options?: CallOptions): Promise<FeatureResult<"speech-to-text">> {
    return this.call("speech-to-text", input, options);
  }

  /**
   * Face Swapping: Puts the face of the source image onto the target image with a classical landmark-based swap (warp and blend), not a generative model.
   * `POST /v1/images/face-swapping`; waits for the result.
   */
  faceSwapping(input: FaceSwappingInput, options?: CallOptions): Promise<FeatureResult<"face-swapping">> {
    return this.call("face-swapping", input, options);
  }

  /**
   * Reimagine: Creates a variation of an image, optionally only inside a mask.
   * `POST /v1/images/reimagine`; waits for the result.
   */
  reimagine(input: ReimagineInput, options?: CallOptions): Promise<FeatureResult<"reimagine">> {
    return this.call("reimagine", input, options);
  }

  /**
   * Identity Inpainting: Paints a trained AI Clone into the masked area of an image, following an optional prompt.
   * `POST /v1/images/identity-inpainting`; waits for the result.
   */
  identityInpainting(
    input: IdentityInpaintingInput,
    options?: CallOptions,
  ): Promise<FeatureResult<"identity-inpainting">> {
    return this.call("identity-inpainting", input, options);
  }
}

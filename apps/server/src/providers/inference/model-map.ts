import { readFileSync } from "node:fs";
import { FEATURES } from "@prism/contract";
import { z } from "zod";

/**
 * Which model each hosted platform runs for each feature, and how: the model (or version, endpoint,
 * workflow), the input template that maps our fields onto the model's (see fillTemplate), where the
 * result sits in the answer, what the platform charges when it does not say itself, and, for the
 * features that can use an AI Clone, what runs instead when the call names one. The defaults below
 * are what ships; `PROVIDER_MODELS_FILE` (JSON, the same shape) replaces any feature's entry.
 */

const FEATURE_IDS = FEATURES.map((feature) => feature.id) as [string, ...string[]];

const priceSchema = z
  .object({
    /** Dollars per result, as the platform's pricing page states it. */
    perOutputUsd: z.number().nonnegative().optional(),
    /** Dollars per second of compute (Replicate's hardware price, fal's GPU second). */
    perSecondUsd: z.number().nonnegative().optional(),
  })
  .strict();

const hostedEntrySchema = z
  .object({
    /** Replicate `owner/name` or `owner/name:version`; fal endpoint id; Stability path under /v2beta. */
    model: z.string().trim().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    /** Where the result is in the answer (a dotted path); absent: the answer itself. */
    output: z.string().optional(),
    /** Stability: `async` endpoints answer an id and are polled at /v2beta/results/{id}. */
    mode: z.enum(["sync", "async"]).optional(),
    price: priceSchema.optional(),
    /** What runs instead when the call names an AI Clone (`$identity` is the clone's trained model). */
    identity: z
      .object({
        model: z.string().trim().min(1).optional(),
        input: z.record(z.string(), z.unknown()).optional(),
        output: z.string().optional(),
      })
      .strict()
      .optional(),
    /** Training only: the Replicate model new versions go to (default `<account>/prism-ai-clones`). */
    destination: z.string().trim().min(1).optional(),
  })
  .strict();
export type HostedModelEntry = z.infer<typeof hostedEntrySchema>;

/** A node input of a ComfyUI workflow: `[node id, input name]`. */
const nodeInputSchema = z.tuple([z.string().min(1), z.string().min(1)]);

const comfyEntrySchema = z
  .object({
    /** An API-format workflow: a shipped one by name (`builtin:txt2img`) or a path to the operator's. */
    workflow: z.string().trim().min(1),
    /** Our values (`prompt`, `image`, `mask`, `denoise`, `seed`...) to the node inputs they fill. */
    inputs: z.record(z.string(), z.union([nodeInputSchema, z.array(nodeInputSchema)])),
    /** The node whose images are the result. */
    output: z.string().min(1),
  })
  .strict();
export type ComfyModelEntry = z.infer<typeof comfyEntrySchema>;

const hostedMapSchema = z.partialRecord(z.enum(FEATURE_IDS), hostedEntrySchema);
const comfyMapSchema = z.partialRecord(z.enum(FEATURE_IDS), comfyEntrySchema);

export const modelMapFileSchema = z
  .object({
    replicate: hostedMapSchema.optional(),
    fal: hostedMapSchema.optional(),
    stability: hostedMapSchema.optional(),
    comfyui: comfyMapSchema.optional(),
  })
  .strict();

export type HostedModelMap = Partial<Record<string, HostedModelEntry>>;
export type ComfyModelMap = Partial<Record<string, ComfyModelEntry>>;

export interface ModelMaps {
  replicate: HostedModelMap;
  fal: HostedModelMap;
  stability: HostedModelMap;
  comfyui: ComfyModelMap;
}

/** The trigger word the shipped trainers teach and the clone prompts use. */
export const CLONE_TRIGGER_WORD = "TOK";
const CLONE_PROMPT = `a photo of ${CLONE_TRIGGER_WORD}, {prompt}`;
/** What reimagine asks for when the caller gives no prompt (the feature has none). */
export const REIMAGINE_PROMPT = "A faithful variation of this image with the same subject and composition.";
export const TEXT_REMOVAL_PROMPT =
  "Remove all text, letters, captions and watermarks from the image and restore the background behind them. Change nothing else.";

/**
 * Replicate (https://replicate.com/docs/reference/http). Official models (no version) run at
 * /models/{owner}/{name}/predictions; community models are pinned to a version, as Replicate requires.
 */
export const DEFAULT_REPLICATE_MODELS: HostedModelMap = {
  "image-generation": {
    model: "black-forest-labs/flux-dev",
    input: {
      prompt: "$prompt",
      aspect_ratio: "$aspect_ratio",
      num_outputs: 1,
      output_format: "png",
      go_fast: false,
    },
    price: { perOutputUsd: 0.025 },
  },
  "pegasus-generation": {
    model: "black-forest-labs/flux-1.1-pro",
    input: { prompt: "$prompt", aspect_ratio: "$aspect_ratio", output_format: "png", safety_tolerance: 2 },
    price: { perOutputUsd: 0.04 },
    identity: {
      model: "$identity",
      input: {
        prompt: CLONE_PROMPT,
        aspect_ratio: "$aspect_ratio",
        num_outputs: 1,
        output_format: "png",
        lora_scale: 1,
      },
    },
  },
  "pegasus-training": {
    model: "ostris/flux-dev-lora-trainer:e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497",
    input: { input_images: "$images_zip", trigger_word: CLONE_TRIGGER_WORD, steps: 1000, autocaption: true },
    price: { perSecondUsd: 0.001528 },
  },
  "generative-fill": {
    model: "black-forest-labs/flux-fill-pro",
    input: {
      image: "$image",
      mask: "$mask",
      prompt: "$prompt|Fill the masked area naturally.",
      output_format: "png",
    },
    price: { perOutputUsd: 0.05 },
  },
  "object-removal": {
    model: "allenhooo/lama:cdac78a1bec5b23c07fd29692fb70baa513ea403a39e643c48ec5edadb15fe72",
    input: { image: "$image", mask: "$mask" },
    price: { perSecondUsd: 0.000725 },
  },
  "text-removal": {
    model: "black-forest-labs/flux-kontext-pro",
    input: {
      input_image: "$image",
      prompt: TEXT_REMOVAL_PROMPT,
      output_format: "png",
      aspect_ratio: "match_input_image",
    },
    price: { perOutputUsd: 0.04 },
  },
  "image-extension": {
    model: "black-forest-labs/flux-fill-pro",
    input: {
      image: "$extended_image",
      mask: "$extended_mask",
      prompt: "Continue the image seamlessly beyond its borders.",
      output_format: "png",
    },
    price: { perOutputUsd: 0.05 },
  },
  "image-background-removal": {
    model: "851-labs/background-remover:a029dff38972b5fda4ec5d75d7d1cd25aeff621d2cf4946a41055d7db66b80bc",
    input: { image: "$image", format: "png" },
    price: { perSecondUsd: 0.000225 },
  },
  "image-upscaling": {
    model: "nightmareai/real-esrgan:42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b",
    input: { image: "$image", scale: 2, face_enhance: false },
    price: { perSecondUsd: 0.000225 },
  },
  "speech-to-text": {
    model: "openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e",
    input: { audio: "$audio", language: "$language", transcription: "plain text" },
    price: { perSecondUsd: 0.000725 },
  },
  "face-swapping": {
    model: "cdingram/face-swap:d1d6ea8c8be89d664a07a457526f7128109dee7030fdac424788d762c71ed111",
    input: { input_image: "$target", swap_image: "$source" },
    price: { perSecondUsd: 0.000725 },
  },
  reimagine: {
    model: "black-forest-labs/flux-dev",
    input: {
      image: "$image",
      prompt: REIMAGINE_PROMPT,
      prompt_strength: "$denoise",
      num_outputs: 1,
      output_format: "png",
    },
    price: { perOutputUsd: 0.025 },
  },
  "identity-inpainting": {
    model: "$identity",
    input: {
      image: "$image",
      mask: "$mask",
      prompt: CLONE_PROMPT,
      prompt_strength: 0.85,
      num_outputs: 1,
      output_format: "png",
    },
  },
};

/** fal's queue API (https://docs.fal.ai/model-endpoints/queue); results are `images`/`image` objects. */
export const DEFAULT_FAL_MODELS: HostedModelMap = {
  "image-generation": {
    model: "fal-ai/flux/dev",
    input: { prompt: "$prompt", image_size: "$image_size", num_images: 1, output_format: "png" },
    output: "images.0.url",
    price: { perOutputUsd: 0.025 },
  },
  "pegasus-generation": {
    model: "fal-ai/flux-pro/v1.1",
    input: { prompt: "$prompt", image_size: "$image_size", num_images: 1, output_format: "png" },
    output: "images.0.url",
    price: { perOutputUsd: 0.04 },
    identity: {
      model: "fal-ai/flux-lora",
      input: {
        prompt: CLONE_PROMPT,
        image_size: "$image_size",
        num_images: 1,
        output_format: "png",
        loras: [{ path: "$identity", scale: 1 }],
      },
    },
  },
  "pegasus-training": {
    model: "fal-ai/flux-lora-fast-training",
    input: {
      images_data_url: "$images_zip",
      trigger_word: CLONE_TRIGGER_WORD,
      is_style: false,
      create_masks: true,
    },
    output: "diffusers_lora_file.url",
    price: { perOutputUsd: 2 },
  },
  "generative-fill": {
    model: "fal-ai/flux-pro/v1/fill",
    input: {
      image_url: "$image",
      mask_url: "$mask",
      prompt: "$prompt|Fill the masked area naturally.",
      output_format: "png",
    },
    output: "images.0.url",
    price: { perOutputUsd: 0.05 },
  },
  "object-removal": {
    model: "fal-ai/bria/eraser",
    input: { image_url: "$image", mask_url: "$mask" },
    output: "image.url",
    price: { perOutputUsd: 0.04 },
  },
  "text-removal": {
    model: "fal-ai/flux-pro/kontext",
    input: { image_url: "$image", prompt: TEXT_REMOVAL_PROMPT, output_format: "png" },
    output: "images.0.url",
    price: { perOutputUsd: 0.04 },
  },
  "image-extension": {
    model: "fal-ai/bria/expand",
    input: {
      image_url: "$image",
      canvas_size: ["$canvas_width", "$canvas_height"],
      original_image_size: ["$original_width", "$original_height"],
      original_image_location: ["$original_x", "$original_y"],
    },
    output: "image.url",
    price: { perOutputUsd: 0.04 },
  },
  "image-background-removal": {
    model: "fal-ai/birefnet",
    input: { image_url: "$image", output_format: "png" },
    output: "image.url",
    price: { perSecondUsd: 0.00111 },
  },
  "image-upscaling": {
    model: "fal-ai/esrgan",
    input: { image_url: "$image", scale: 2, output_format: "png" },
    output: "image.url",
    price: { perSecondUsd: 0.00111 },
  },
  "speech-to-text": {
    model: "fal-ai/whisper",
    input: { audio_url: "$audio", task: "transcribe", language: "$language", chunk_level: "segment" },
    price: { perSecondUsd: 0.00111 },
  },
  "face-swapping": {
    model: "fal-ai/face-swap",
    input: { base_image_url: "$target", swap_image_url: "$source" },
    output: "image.url",
    price: { perOutputUsd: 0.01 },
  },
  reimagine: {
    model: "fal-ai/flux/dev/image-to-image",
    input: {
      image_url: "$image",
      prompt: REIMAGINE_PROMPT,
      strength: "$denoise",
      num_images: 1,
      output_format: "png",
    },
    output: "images.0.url",
    price: { perOutputUsd: 0.03 },
  },
  "identity-inpainting": {
    model: "fal-ai/flux-lora/inpainting",
    input: {
      image_url: "$image",
      mask_url: "$mask",
      prompt: CLONE_PROMPT,
      strength: 0.85,
      loras: [{ path: "$identity", scale: 1 }],
      num_images: 1,
      output_format: "png",
    },
    output: "images.0.url",
    price: { perOutputUsd: 0.035 },
  },
};

/**
 * Stability's v2beta Stable Image API (https://platform.stability.ai/docs/api-reference): multipart in,
 * the image out (`Accept: image/*`). Credits are $0.01 each.
 */
export const DEFAULT_STABILITY_MODELS: HostedModelMap = {
  "image-generation": {
    model: "stable-image/generate/core",
    input: {
      prompt: "$prompt",
      negative_prompt: "$negative_prompt",
      aspect_ratio: "$aspect_ratio",
      output_format: "png",
    },
    price: { perOutputUsd: 0.03 },
  },
  "pegasus-generation": {
    model: "stable-image/generate/ultra",
    input: { prompt: "$prompt", aspect_ratio: "$aspect_ratio", output_format: "png" },
    price: { perOutputUsd: 0.08 },
  },
  "generative-fill": {
    model: "stable-image/edit/inpaint",
    input: {
      image: "$image",
      mask: "$mask",
      prompt: "$prompt|Fill the masked area naturally.",
      output_format: "png",
    },
    price: { perOutputUsd: 0.03 },
  },
  "object-removal": {
    model: "stable-image/edit/erase",
    input: { image: "$image", mask: "$mask", output_format: "png" },
    price: { perOutputUsd: 0.03 },
  },
  "image-extension": {
    model: "stable-image/edit/outpaint",
    input: {
      image: "$image",
      up: "$top",
      down: "$bottom",
      left: "$left",
      right: "$right",
      output_format: "png",
    },
    price: { perOutputUsd: 0.04 },
  },
  "image-background-removal": {
    model: "stable-image/edit/remove-background",
    input: { image: "$image", output_format: "png" },
    price: { perOutputUsd: 0.02 },
  },
  "image-upscaling": {
    model: "stable-image/upscale/fast",
    input: { image: "$image", output_format: "png" },
    price: { perOutputUsd: 0.01 },
  },
  reimagine: {
    model: "stable-image/control/structure",
    input: { image: "$image", prompt: REIMAGINE_PROMPT, control_strength: "$denoise", output_format: "png" },
    price: { perOutputUsd: 0.03 },
  },
};

/**
 * ComfyUI: the shipped API-format workflows (apps/server/comfyui-workflows/) run on a stock ComfyUI
 * with the checkpoints they name; the operator replaces any with a path to their own.
 */
export const DEFAULT_COMFYUI_MODELS: ComfyModelMap = {
  "image-generation": {
    workflow: "builtin:txt2img",
    inputs: {
      prompt: ["6", "text"],
      negative_prompt: ["7", "text"],
      width: ["5", "width"],
      height: ["5", "height"],
      seed: ["3", "seed"],
    },
    output: "9",
  },
  "pegasus-generation": {
    workflow: "builtin:txt2img",
    inputs: { prompt: ["6", "text"], width: ["5", "width"], height: ["5", "height"], seed: ["3", "seed"] },
    output: "9",
  },
  "generative-fill": {
    workflow: "builtin:inpaint",
    inputs: {
      image: ["10", "image"],
      mask: ["11", "image"],
      prompt: ["6", "text"],
      seed: ["3", "seed"],
      denoise: ["3", "denoise"],
    },
    output: "9",
  },
  "object-removal": {
    workflow: "builtin:inpaint",
    inputs: { image: ["10", "image"], mask: ["11", "image"], seed: ["3", "seed"] },
    output: "9",
  },
  "image-extension": {
    workflow: "builtin:inpaint",
    inputs: { extended_image: ["10", "image"], extended_mask: ["11", "image"], seed: ["3", "seed"] },
    output: "9",
  },
  "image-upscaling": {
    workflow: "builtin:upscale",
    inputs: { image: ["10", "image"] },
    output: "9",
  },
  reimagine: {
    workflow: "builtin:img2img",
    inputs: { image: ["10", "image"], denoise: ["3", "denoise"], seed: ["3", "seed"] },
    output: "9",
  },
};

/** The shipped maps, with the operator's file (PROVIDER_MODELS_FILE) laid over them feature by feature. */
export function loadModelMaps(path: string | undefined): ModelMaps {
  const maps: ModelMaps = {
    replicate: { ...DEFAULT_REPLICATE_MODELS },
    fal: { ...DEFAULT_FAL_MODELS },
    stability: { ...DEFAULT_STABILITY_MODELS },
    comfyui: { ...DEFAULT_COMFYUI_MODELS },
  };
  if (!path) return maps;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`PROVIDER_MODELS_FILE: ${path} could not be read as JSON (${(error as Error).message}).`);
  }
  const result = modelMapFileSchema.safeParse(parsed);
  if (!result.success) {
    const problem = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
    throw new Error(`PROVIDER_MODELS_FILE: ${path} is not a valid model map (${problem}).`);
  }
  const file = result.data;
  return {
    replicate: { ...maps.replicate, ...file.replicate },
    fal: { ...maps.fal, ...file.fal },
    stability: { ...maps.stability, ...file.stability },
    comfyui: { ...maps.comfyui, ...file.comfyui },
  };
}

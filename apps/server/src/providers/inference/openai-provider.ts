import { DEFAULT_OPENAI_CONCURRENCY, type Feature, type TranscriptionResult } from "@prism/contract";
import type OpenAI from "openai";
import type { ImagesResponse } from "openai/resources/images";
import type { Metadata } from "sharp";
import { loadSharp } from "../images/codecs";
import {
  type FeatureProvider,
  type ProviderAvailability,
  ProviderError,
  type ProviderFile,
  type ProviderInput,
  type ProviderOutput,
} from "./feature-provider";
import { resolveFeatureIds } from "./http-provider";

/**
 * OpenAI (or an OpenAI-compatible API such as a local gateway) through the official SDK, for the three
 * features it can do honestly: text-to-image (`images.generate`), generative fill (`images.edit` with a
 * mask) and speech to text (`audio.transcriptions.create`). Results are normalised to what the other
 * providers return: a PNG of the requested size, or `{ language, segments }`.
 */

export const OPENAI_FEATURE_IDS = ["image-generation", "generative-fill", "speech-to-text"] as const;

export const DEFAULT_OPENAI_MODELS = {
  image: "gpt-image-1",
  imageEdit: "gpt-image-1",
  transcription: "whisper-1",
} as const;

export interface OpenAiProviderOptions {
  apiKey: string;
  /** The API base URL including `/v1` (default `https://api.openai.com/v1`). */
  baseUrl?: string;
  /** Which of {@link OPENAI_FEATURE_IDS} to serve, or `"all"` of them. */
  features: "all" | readonly string[];
  models?: { image?: string; imageEdit?: string; transcription?: string };
  /** Longest one call may take. */
  timeoutMs: number;
  /** Calls the API takes at once across every server process; more wait in the call queue. */
  concurrency?: number;
  /** SDK retries on connection errors, 429 and 5xx (default 0: the gateway's caller waits). */
  maxRetries?: number;
}

/** What generative fill asks for when the caller gives no prompt (OpenAI requires one). */
export const DEFAULT_FILL_PROMPT =
  "Fill the masked area so that it blends seamlessly and naturally with the rest of the image.";

const UNREACHABLE = "The model provider is unreachable.";
const GPT_IMAGE_SIZES: readonly (readonly [number, number])[] = [
  [1024, 1024],
  [1536, 1024],
  [1024, 1536],
];
const DALL_E_3_SIZES: readonly (readonly [number, number])[] = [
  [1024, 1024],
  [1792, 1024],
  [1024, 1792],
];
const DALL_E_2_SIZES: readonly (readonly [number, number])[] = [
  [256, 256],
  [512, 512],
  [1024, 1024],
];
/** GPT image models take inputs up to 50 MB; bigger than their largest output gains nothing. */
const GPT_IMAGE_MAX_INPUT_SIDE = 2048;

type ModelFamily = "gpt-image" | "gpt-image-2" | "dall-e-2" | "dall-e-3" | "other";

function familyOf(model: string): ModelFamily {
  if (model.startsWith("gpt-image-2")) return "gpt-image-2";
  if (model.startsWith("gpt-image") || model.startsWith("chatgpt-image")) return "gpt-image";
  if (model === "dall-e-2") return "dall-e-2";
  if (model === "dall-e-3") return "dall-e-3";
  return "other";
}

/** GPT image models always answer in base64 and reject `response_format`. */
function responseFormat(family: ModelFamily): { response_format?: "b64_json" } {
  return family === "gpt-image" || family === "gpt-image-2" ? {} : { response_format: "b64_json" };
}

/** The size to ask the model for: the requested one where the model allows it, else the nearest shape. */
export function generationSize(
  model: string,
  width: number,
  height: number,
): { width: number; height: number } {
  const family = familyOf(model);
  if (family === "other") return { width, height };
  if (family === "gpt-image-2") {
    const ratio = Math.min(3, Math.max(1 / 3, width / height));
    const round16 = (value: number) => Math.max(16, Math.round(value / 16) * 16);
    const w = round16(width);
    return { width: w, height: round16(w / ratio) };
  }
  const sizes =
    family === "gpt-image" ? GPT_IMAGE_SIZES : family === "dall-e-3" ? DALL_E_3_SIZES : DALL_E_2_SIZES;
  // Nearest shape first; among equal shapes the smallest that needs no upscaling, else the largest.
  const target = Math.log(width / height);
  const upscale = ([w, h]: readonly [number, number]) => Math.max(0, Math.max(width / w, height / h) - 1);
  const [best] = [...sizes].sort(
    (a, b) =>
      Math.abs(Math.log(a[0] / a[1]) - target) - Math.abs(Math.log(b[0] / b[1]) - target) ||
      upscale(a) - upscale(b) ||
      a[0] * a[1] - b[0] * b[1],
  );
  return { width: best![0], height: best![1] };
}

type OpenAiModule = typeof import("openai");

/** The SDK's module and the client made with it, loaded together on the first call. */
interface Sdk {
  openai: OpenAiModule;
  client: OpenAI;
}

export function createOpenAiProvider(options: OpenAiProviderOptions): FeatureProvider {
  const featureIds = resolveFeatureIds(options.features, OPENAI_FEATURE_IDS);
  const models = { ...DEFAULT_OPENAI_MODELS, ...definedOnly(options.models ?? {}) };
  // The SDK is loaded with the first call, not with the server (issue 16: start-up time).
  let connection: Promise<Sdk> | undefined;
  const connect = (): Promise<Sdk> => {
    connection ??= import("openai").then((openai) => ({
      openai,
      client: new openai.default({
        apiKey: options.apiKey,
        ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
        timeout: options.timeoutMs,
        maxRetries: options.maxRetries ?? 0,
      }),
    }));
    return connection;
  };

  async function generate(
    { client }: Sdk,
    input: ProviderInput,
    signal: AbortSignal,
  ): Promise<ProviderOutput> {
    const body = input.body as { prompt?: string; negative_prompt?: string; width?: number; height?: number };
    const width = Number(body.width ?? 1024);
    const height = Number(body.height ?? 1024);
    const size = generationSize(models.image, width, height);
    const prompt = body.negative_prompt?.trim()
      ? `${body.prompt ?? ""}\n\nAvoid: ${body.negative_prompt.trim()}`
      : (body.prompt ?? "");
    const response = await client.images.generate(
      {
        model: models.image,
        prompt,
        size: `${size.width}x${size.height}`,
        n: 1,
        ...responseFormat(familyOf(models.image)),
      },
      { signal },
    );
    const image = await imageOf(response, signal);
    return { kind: "image", data: await toPng(image, width, height, "cover"), mimeType: "image/png" };
  }

  async function fill(
    { client, openai: { toFile } }: Sdk,
    input: ProviderInput,
    signal: AbortSignal,
  ): Promise<ProviderOutput> {
    const image = firstFile(input, "image");
    const mask = firstFile(input, "mask");
    const body = input.body as { prompt?: string };
    const sharp = await loadSharp();
    const original = await sharp(image.buffer).metadata();
    if (!original.width || !original.height) {
      throw new ProviderError("invalid-input", "The image could not be read.");
    }
    const family = familyOf(models.imageEdit);
    const target = editSize(family, original.width, original.height);
    const [imagePng, maskPng] = await Promise.all([
      sharp(image.buffer).resize(target.width, target.height, { fit: "fill" }).ensureAlpha().png().toBuffer(),
      toOpenAiMask(mask.buffer, target.width, target.height),
    ]);
    const response = await client.images.edit(
      {
        model: models.imageEdit,
        image: await toFile(imagePng, "image.png", { type: "image/png" }),
        mask: await toFile(maskPng, "mask.png", { type: "image/png" }),
        prompt: body.prompt?.trim() || DEFAULT_FILL_PROMPT,
        n: 1,
        ...(family === "dall-e-2" ? { size: "1024x1024" } : {}),
        ...responseFormat(family),
      },
      { signal },
    );
    const result = await imageOf(response, signal);
    return {
      kind: "image",
      data: await toPng(result, original.width, original.height, "fill"),
      mimeType: "image/png",
    };
  }

  async function transcribe(
    { client, openai: { toFile } }: Sdk,
    input: ProviderInput,
    signal: AbortSignal,
  ): Promise<ProviderOutput> {
    const audio = firstFile(input, "audio");
    const language = typeof input.body.language === "string" ? input.body.language : undefined;
    const file = await toFile(audio.buffer, audio.filename, { type: audio.mimeType });
    const model = models.transcription;
    let result: TranscriptionResult;
    if (model.startsWith("gpt-4o")) {
      // These models have no timed segments: the whole text becomes one segment spanning the audio.
      const answer = await client.audio.transcriptions.create(
        { model, file, ...(language ? { language } : {}), response_format: "json" },
        { signal },
      );
      const text = answer.text.trim();
      const end = await audioSeconds(audio);
      result = { language: language ?? "", segments: text ? [{ start: 0, end, text }] : [] };
    } else {
      const answer = await client.audio.transcriptions.create(
        { model, file, ...(language ? { language } : {}), response_format: "verbose_json" },
        { signal },
      );
      const segments = (answer.segments ?? [])
        .map((segment) => ({ start: segment.start, end: segment.end, text: segment.text.trim() }))
        .filter((segment) => segment.text !== "");
      const text = answer.text?.trim() ?? "";
      if (segments.length === 0 && text) {
        segments.push({ start: 0, end: answer.duration ?? (await audioSeconds(audio)), text });
      }
      result = { language: language ?? answer.language ?? "", segments };
    }
    return { kind: "json", body: result };
  }

  return {
    name: "openai",
    capacity: { slots: options.concurrency ?? DEFAULT_OPENAI_CONCURRENCY, scope: "shared" },

    supports(feature: Feature): boolean {
      return featureIds.has(feature.id);
    },

    async availability(feature: Feature): Promise<ProviderAvailability> {
      return featureIds.has(feature.id)
        ? { available: true }
        : { available: false, reason: "The OpenAI provider does not offer this feature." };
    },

    async run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput> {
      if (!featureIds.has(feature.id)) {
        throw new ProviderError("unavailable", "The OpenAI provider does not offer this feature.");
      }
      let sdk: Sdk | undefined;
      try {
        sdk = await connect();
        switch (feature.id) {
          case "image-generation":
            return await generate(sdk, input, signal);
          case "generative-fill":
            return await fill(sdk, input, signal);
          default:
            return await transcribe(sdk, input, signal);
        }
      } catch (error) {
        throw toProviderError(error, signal, sdk?.openai);
      }
    },
  };
}

function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => typeof value === "string" && value.trim() !== ""),
  ) as Partial<T>;
}

function firstFile(input: ProviderInput, field: string): ProviderFile {
  const file = input.files[field]?.[0];
  if (!file) {
    throw new ProviderError("invalid-input", `The ${field} file is missing.`);
  }
  return file;
}

function editSize(family: ModelFamily, width: number, height: number): { width: number; height: number } {
  if (family === "dall-e-2") return { width: 1024, height: 1024 };
  if (family === "gpt-image" || family === "gpt-image-2") {
    const scale = Math.min(1, GPT_IMAGE_MAX_INPUT_SIDE / Math.max(width, height));
    return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
  }
  return { width, height };
}

/**
 * Our masks are white where the image should change; OpenAI's are transparent there. The result is a
 * black PNG whose alpha is 0 inside the area (mask brighter than mid-grey) and 255 elsewhere.
 */
export async function toOpenAiMask(mask: Buffer, width: number, height: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const { data } = await sharp(mask)
    .flatten({ background: "#000000" })
    .resize(width, height, { fit: "fill" })
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgba = Buffer.alloc(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    rgba[pixel * 4 + 3] = (data[pixel] ?? 0) >= 128 ? 0 : 255;
  }
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

async function imageOf(response: ImagesResponse, signal: AbortSignal): Promise<Buffer> {
  const first = response.data?.[0];
  if (first?.b64_json) {
    return Buffer.from(first.b64_json, "base64");
  }
  if (first?.url) {
    // Some OpenAI-compatible servers ignore response_format and answer with a short-lived URL.
    const download = await fetch(first.url, { signal });
    if (!download.ok) {
      throw new ProviderError("failed", "The model provider's result could not be downloaded.");
    }
    return Buffer.from(await download.arrayBuffer());
  }
  throw new ProviderError("failed", "The model provider answered without an image.");
}

/** The result as a PNG of exactly the wanted size. */
async function toPng(image: Buffer, width: number, height: number, fit: "cover" | "fill"): Promise<Buffer> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(image).metadata();
  } catch {
    throw new ProviderError("failed", "The model provider answered with an unreadable image.");
  }
  if (metadata.format === "png" && metadata.width === width && metadata.height === height) {
    return image;
  }
  return sharp(image).resize(width, height, { fit }).png().toBuffer();
}

async function audioSeconds(audio: ProviderFile): Promise<number> {
  try {
    const { parseBuffer } = await import("music-metadata");
    const metadata = await parseBuffer(audio.buffer, { mimeType: audio.mimeType }, { duration: true });
    return Math.round((metadata.format.duration ?? 0) * 1000) / 1000;
  } catch {
    return 0;
  }
}

const POLICY_CODES = new Set(["content_policy_violation", "moderation_blocked"]);

/** The error classes come from the loaded SDK (`openai` is undefined when loading it failed). */
function toProviderError(
  error: unknown,
  signal: AbortSignal,
  openai: OpenAiModule | undefined,
): ProviderError {
  if (error instanceof ProviderError) {
    return error;
  }
  let mapped: ProviderError;
  if (
    (openai &&
      (error instanceof openai.APIUserAbortError || error instanceof openai.APIConnectionTimeoutError)) ||
    signal.aborted
  ) {
    mapped = new ProviderError("timeout", "The model provider did not answer in time.");
  } else if (openai && error instanceof openai.APIConnectionError) {
    mapped = new ProviderError("unavailable", UNREACHABLE);
  } else if (openai && error instanceof openai.APIError) {
    const code = typeof error.code === "string" ? error.code : "";
    if (error.status === 400 && (POLICY_CODES.has(code) || /safety|policy/i.test(error.message))) {
      mapped = new ProviderError(
        "invalid-input",
        "The request was rejected by the model provider's safety system.",
      );
    } else if (error.status === 401 || error.status === 403) {
      mapped = new ProviderError("unavailable", "The model provider refused this deployment's credentials.");
    } else if (error.status === 429) {
      mapped = new ProviderError("failed", "The model provider is busy. Please try again in a moment.");
    } else {
      mapped = new ProviderError(
        "failed",
        `The model provider could not process the request (HTTP ${error.status}).`,
      );
    }
  } else {
    mapped = new ProviderError("failed", "The model provider's answer could not be processed.");
  }
  // Upstream messages can name keys or internals: they are kept for the logs, not shown to users.
  mapped.cause = error;
  return mapped;
}

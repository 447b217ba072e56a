import type { TranscriptionResult } from "@prism/contract";
import { zipSync } from "fflate";
import { loadSharp } from "../images/codecs";
import { ProviderError, type ProviderFile, type ProviderInput } from "./feature-provider";

/**
 * The values a model map's input template can name (`"$prompt"`, `"$image"`, `"{prompt}"` inside a
 * text...), computed from one call: the body's fields as the catalog parsed them, its files as Blobs
 * (each adapter uploads them its platform's way), and values derived for platforms that want them in
 * another shape (an aspect ratio, the photos of a training as one zip, an extended canvas and its mask,
 * a mask inverted to the "transparent where it changes" convention).
 */
export type CallValues = (name: string) => Promise<unknown>;

/** The aspect ratios the hosted FLUX endpoints accept; a size maps to the nearest. */
const ASPECT_RATIOS = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "4:5", "5:4", "21:9", "9:21"];

export function nearestAspectRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  let best = ASPECT_RATIOS[0]!;
  let distance = Number.POSITIVE_INFINITY;
  for (const ratio of ASPECT_RATIOS) {
    const [w, h] = ratio.split(":").map(Number) as [number, number];
    const gap = Math.abs(Math.log(w / h) - target);
    if (gap < distance) {
      best = ratio;
      distance = gap;
    }
  }
  return best;
}

function blobOf(file: ProviderFile): Blob {
  return new Blob([new Uint8Array(file.buffer)], { type: file.mimeType });
}

function pngBlob(buffer: Buffer): Blob {
  return new Blob([new Uint8Array(buffer)], { type: "image/png" });
}

function firstFile(input: ProviderInput, field: string): ProviderFile {
  const file = input.files[field]?.[0];
  if (!file) throw new ProviderError("invalid-input", `The ${field} file is missing.`);
  return file;
}

/**
 * The call's values. `resolveIdentity` turns the clone's identity id into what the platform runs it
 * with (Replicate's trained version, fal's LoRA weights URL); it is asked only when a template names
 * `$identity`.
 */
export function callValues(
  input: ProviderInput,
  resolveIdentity?: (identityId: string) => Promise<string>,
): CallValues {
  const memo = new Map<string, Promise<unknown>>();
  const body = input.body;
  const number = (name: string) => (body[name] === undefined ? undefined : Number(body[name]));

  async function compute(name: string): Promise<unknown> {
    switch (name) {
      case "aspect_ratio":
        return nearestAspectRatio(number("width") ?? 1024, number("height") ?? 1024);
      case "image_size":
        return { width: number("width") ?? 1024, height: number("height") ?? 1024 };
      case "identity": {
        if (!input.identity) return undefined;
        if (!resolveIdentity) return input.identity.identityId;
        return resolveIdentity(input.identity.identityId);
      }
      case "images_zip": {
        const images = input.files.images ?? [];
        const entries: Record<string, Uint8Array> = {};
        images.forEach((file, index) => {
          const extension =
            file.mimeType === "image/png" ? "png" : file.mimeType === "image/webp" ? "webp" : "jpg";
          entries[`photo-${String(index + 1).padStart(2, "0")}.${extension}`] = new Uint8Array(file.buffer);
        });
        // Photos are compressed already: stored, not deflated again.
        return new Blob([zipSync(entries, { level: 0 })], { type: "application/zip" });
      }
      case "images":
        return (input.files.images ?? []).map(blobOf);
      case "mask_alpha":
        return pngBlob(await alphaMask(firstFile(input, "mask").buffer, firstFile(input, "image").buffer));
      case "extended_image":
      case "extended_mask":
      case "canvas_width":
      case "canvas_height":
      case "original_x":
      case "original_y":
      case "original_width":
      case "original_height":
        return (await extension())[name];
      default:
        break;
    }
    if (input.files[name]) return blobOf(firstFile(input, name));
    return body[name] ?? undefined;
  }

  let extended: Promise<Record<string, unknown>> | undefined;
  const extension = () => {
    extended ??= extendedCanvas(firstFile(input, "image").buffer, {
      top: number("top") ?? 0,
      bottom: number("bottom") ?? 0,
      left: number("left") ?? 0,
      right: number("right") ?? 0,
    });
    return extended;
  };

  return (name: string) => {
    let value = memo.get(name);
    if (!value) {
      value = compute(name);
      memo.set(name, value);
    }
    return value;
  };
}

/**
 * Image extension for platforms that only fill: the image on a larger canvas (the new border filled
 * with the image's edge pixels, which inpainting models continue better than flat black) and a mask
 * white exactly where the canvas is new.
 */
async function extendedCanvas(
  image: Buffer,
  sides: { top: number; bottom: number; left: number; right: number },
): Promise<Record<string, unknown>> {
  const sharp = await loadSharp();
  const metadata = await sharp(image).metadata();
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const canvasWidth = width + sides.left + sides.right;
  const canvasHeight = height + sides.top + sides.bottom;
  const canvas = await sharp(image)
    .rotate()
    .extend({ ...sides, extendWith: "copy" })
    .png()
    .toBuffer();
  const keep = await sharp({
    create: { width, height, channels: 3, background: "#000000" },
  })
    .png()
    .toBuffer();
  const mask = await sharp({
    create: { width: canvasWidth, height: canvasHeight, channels: 3, background: "#ffffff" },
  })
    .composite([{ input: keep, left: sides.left, top: sides.top }])
    .png()
    .toBuffer();
  return {
    extended_image: pngBlob(canvas),
    extended_mask: pngBlob(mask),
    canvas_width: canvasWidth,
    canvas_height: canvasHeight,
    original_x: sides.left,
    original_y: sides.top,
    original_width: width,
    original_height: height,
  };
}

/**
 * The image with the mask as its alpha channel, transparent where it should change: what ComfyUI's
 * LoadImage hands on as its MASK output and what some platforms take instead of a separate mask.
 */
async function alphaMask(mask: Buffer, image: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const alpha = await sharp(mask)
    .flatten({ background: "#000000" })
    .resize(width, height, { fit: "fill" })
    .greyscale()
    .negate()
    .extractChannel(0)
    .toBuffer();
  return sharp(image).rotate().removeAlpha().joinChannel(alpha).png().toBuffer();
}

const WHOLE_PLACEHOLDER = /^\$([a-z_]+)(?:\|(.*))?$/s;
const INLINE_PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * A model map's input template filled from the call: `"$name"` becomes the value (any type, omitted
 * when the call has none), `"$name|text"` the value or the text, and `{name}` inside a longer text
 * the value as text. Anything else is a constant, copied as it is.
 */
export async function fillTemplate(template: unknown, values: CallValues): Promise<unknown> {
  if (typeof template === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole) {
      const value = await values(whole[1]!);
      const missing = value === undefined || value === null || value === "";
      if (missing) return whole[2] ?? undefined;
      return value;
    }
    if (!INLINE_PLACEHOLDER.test(template)) return template;
    INLINE_PLACEHOLDER.lastIndex = 0;
    const names = [...template.matchAll(INLINE_PLACEHOLDER)].map((match) => match[1]!);
    const resolved = new Map<string, string>();
    for (const name of names) {
      const value = await values(name);
      resolved.set(name, value === undefined || value === null ? "" : String(value));
    }
    return template
      .replace(INLINE_PLACEHOLDER, (_match, name: string) => resolved.get(name) ?? "")
      .replace(/\s+,/g, ",")
      .replace(/^[\s,]+|[\s,]+$/g, "");
  }
  if (Array.isArray(template)) {
    const items = await Promise.all(template.map((item) => fillTemplate(item, values)));
    return items.filter((item) => item !== undefined);
  }
  if (template !== null && typeof template === "object") {
    const entries = await Promise.all(
      Object.entries(template).map(async ([key, value]) => [key, await fillTemplate(value, values)] as const),
    );
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  return template;
}

/** The value at a dotted path (`images.0.url`) of an answer; an empty path is the answer itself. */
export function valueAt(answer: unknown, path: string | undefined): unknown {
  if (!path) return answer;
  let current: unknown = answer;
  for (const key of path.split(".")) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) current = current[Number(key)];
    else if (typeof current === "object") current = (current as Record<string, unknown>)[key];
    else return undefined;
  }
  return current;
}

/** The result's URL in an answer: a string, the first of a list, or an object's `url`. */
export function urlIn(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return urlIn(value[0]);
  if (value !== null && typeof value === "object" && "url" in value) return urlIn(value.url);
  return undefined;
}

/**
 * A transcription in our shape from the shapes speech models answer: Whisper on Replicate
 * (`segments: [{ start, end, text }]`, `detected_language`), fal's Whisper (`chunks: [{ timestamp:
 * [start, end], text }]`, `text`), or bare text (one segment spanning the audio).
 */
export function transcriptionOf(answer: unknown, requestedLanguage: string): TranscriptionResult {
  if (typeof answer === "string") {
    const text = answer.trim();
    return { language: requestedLanguage, segments: text ? [{ start: 0, end: 0, text }] : [] };
  }
  if (answer === null || typeof answer !== "object") {
    throw new ProviderError("failed", "The model provider answered the transcription in an unknown shape.");
  }
  const record = answer as Record<string, unknown>;
  const language =
    [record.detected_language, record.language, record.inferred_languages]
      .flat()
      .find((value): value is string => typeof value === "string" && value !== "") ?? requestedLanguage;
  const segments: TranscriptionResult["segments"] = [];
  const list = Array.isArray(record.segments)
    ? record.segments
    : Array.isArray(record.chunks)
      ? record.chunks
      : [];
  for (const item of list) {
    if (item === null || typeof item !== "object") continue;
    const segment = item as Record<string, unknown>;
    const text = typeof segment.text === "string" ? segment.text.trim() : "";
    if (text === "") continue;
    const [from, to] = Array.isArray(segment.timestamp) ? segment.timestamp : [segment.start, segment.end];
    const start = Number(from ?? 0);
    const end = Number(to ?? start);
    segments.push({
      start: Number.isFinite(start) ? start : 0,
      end: Number.isFinite(end) ? end : start,
      text,
    });
  }
  const whole = [record.transcription, record.text].find(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  if (segments.length === 0 && whole) segments.push({ start: 0, end: 0, text: whole.trim() });
  return {
    language: language.toLowerCase().length <= 3 ? language.toLowerCase() : requestedLanguage,
    segments,
  };
}

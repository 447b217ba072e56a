import {
  AUDIO_TOO_LARGE,
  AUDIO_TOO_LONG,
  AUDIO_TYPE_REFUSED,
  AUDIO_UNREADABLE,
  type BodyField,
  type Feature,
  type FileInput,
  IMAGE_BYTES_EXCEEDED,
  IMAGE_PIXELS_EXCEEDED,
  IMAGE_TYPE_REFUSED,
  IMAGE_UNREADABLE,
  MAX_UPSCALE_PIXELS,
  MULTIPART_BOUNDARY_MISSING,
  MULTIPART_MAX_FIELD_BYTES,
  MULTIPART_MAX_FIELDS,
  MULTIPART_MAX_FILES,
  MULTIPART_MAX_PARTS,
  MULTIPART_TRUNCATED,
  multipartFieldTooLongText,
  multipartTooManyText,
  nonProductionFieldText,
  UPSCALE_PIXELS_EXCEEDED,
} from "@prism/contract";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors";
import { loadFileType, loadSharp } from "../../providers/images/codecs";
import type { ProviderFile } from "../../providers/inference/feature-provider";
import { type AudioFormat, measureAudioSeconds } from "./audio-length";

/** Magic-byte types we accept, mapped to the catalog's MIME names. */
const IMAGE_TYPES = new Map([
  ["image/png", "image/png"],
  ["image/jpeg", "image/jpeg"],
  ["image/webp", "image/webp"],
]);
const AUDIO_TYPES = new Map([
  ["audio/mpeg", "audio/mpeg"],
  ["audio/wav", "audio/wav"],
  ["audio/x-wav", "audio/wav"],
  ["audio/vnd.wave", "audio/wav"],
  ["audio/ogg", "audio/ogg"],
  ["audio/opus", "audio/ogg"],
  ["audio/flac", "audio/flac"],
  ["audio/x-flac", "audio/flac"],
]);

export interface ValidatedFile extends ProviderFile {
  width?: number;
  height?: number;
  durationSeconds?: number;
}

export interface ReadMultipartOptions {
  /** A production server refuses the catalog's debugging inputs (`nonProductionOnly`). */
  production: boolean;
  /**
   * Runs once with the text fields read so far, before the first file is read (or at the end when
   * there is none): the last chance to refuse a call before its upload is read.
   */
  beforeFiles?: (fields: Record<string, string>) => Promise<void>;
}

/**
 * Reads the multipart body as a stream with hard limits: unknown fields are refused, each file is
 * buffered up to its field's byte limit, at most the catalog's count per field. Every refusal here
 * stops reading at once: the rest of the upload is never buffered.
 */
export async function readMultipart(
  request: FastifyRequest,
  feature: Feature,
  options: ReadMultipartOptions,
): Promise<{ raw: Record<string, Buffer[]>; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw new AppError("unsupported-media-type", "Feature calls take multipart/form-data.");
  }
  const fileInputs = new Map<string, FileInput>(feature.inputs.files.map((input) => [input.name, input]));
  const debugFields = new Set(
    (feature.inputs.body as readonly BodyField[])
      .filter((field) => field.nonProductionOnly)
      .map((field) => field.name),
  );
  const raw: Record<string, Buffer[]> = {};
  const fields: Record<string, string> = {};
  let filesStarted = false;
  try {
    await readParts();
  } catch (error) {
    throw asMultipartRefusal(error);
  }
  if (!filesStarted) await options.beforeFiles?.(fields);
  return { raw, fields };

  async function readParts() {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        const input = fileInputs.get(part.fieldname);
        if (!input) throw new AppError("invalid-input", `Unexpected file field "${part.fieldname}".`);
        if (options.production && input.nonProductionOnly) {
          throw new AppError("invalid-input", nonProductionFieldText(input.name));
        }
        if (!filesStarted) {
          filesStarted = true;
          await options.beforeFiles?.(fields);
        }
        const list = raw[part.fieldname] ?? [];
        raw[part.fieldname] = list;
        if (list.length >= input.maxCount) {
          throw new AppError("invalid-input", `"${input.name}" takes at most ${input.maxCount} file(s).`);
        }
        let buffer: Buffer;
        try {
          buffer = await part.toBuffer();
        } catch (error) {
          // Only the size limit is "too large"; a file cut short by the end of the body is malformed.
          if (errorCodeOf(error) === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(input);
          throw error;
        }
        if (part.file.truncated || buffer.length > input.maxBytes) throw tooLarge(input);
        list.push(buffer);
      } else {
        if (options.production && debugFields.has(part.fieldname)) {
          throw new AppError("invalid-input", nonProductionFieldText(part.fieldname));
        }
        if (part.valueTruncated) {
          const message = multipartFieldTooLongText(part.fieldname, MULTIPART_MAX_FIELD_BYTES);
          throw new AppError("invalid-input", message, { field: part.fieldname });
        }
        fields[part.fieldname] = typeof part.value === "string" ? part.value : String(part.value);
      }
    }
  }
}

const MULTIPART_LIMIT_ERRORS: Record<string, { what: "parts" | "files" | "fields"; limit: number }> = {
  FST_PARTS_LIMIT: { what: "parts", limit: MULTIPART_MAX_PARTS },
  FST_FILES_LIMIT: { what: "files", limit: MULTIPART_MAX_FILES },
  FST_FIELDS_LIMIT: { what: "fields", limit: MULTIPART_MAX_FIELDS },
};

function multipartLimitsOf(code: string | undefined) {
  return code ? MULTIPART_LIMIT_ERRORS[code] : undefined;
}

function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A malformed multipart body is the caller's mistake, answered 400 with what is wrong, never 500: the
 * parser's own errors (@fastify/multipart's codes, busboy's messages) named in the contract's words.
 */
function asMultipartRefusal(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const limits = multipartLimitsOf(errorCodeOf(error));
  if (limits) return new AppError("invalid-input", multipartTooManyText(limits.what, limits.limit));
  const message = error instanceof Error ? error.message : "";
  if (message.includes("Boundary not found"))
    return new AppError("invalid-input", MULTIPART_BOUNDARY_MISSING);
  if (
    message.includes("Unexpected end of") ||
    message.includes("terminated early") ||
    errorCodeOf(error) === "FST_MP_PREMATURE_CLOSE"
  ) {
    return new AppError("invalid-input", MULTIPART_TRUNCATED);
  }
  return error;
}

function tooLarge(input: FileInput): AppError {
  return new AppError(
    "file-too-large",
    input.kind === "image" ? IMAGE_BYTES_EXCEEDED.message : AUDIO_TOO_LARGE.message,
  );
}

/**
 * Checks each file by its content (never its name): the type from magic bytes, image dimensions from
 * the header before any decode (a tiny file claiming 20000x20000 is refused without allocating it),
 * audio duration from its audio data (never its metadata).
 */
export async function validateFiles(
  feature: Feature,
  raw: Record<string, Buffer[]>,
): Promise<Record<string, ValidatedFile[]>> {
  const result: Record<string, ValidatedFile[]> = {};
  for (const input of feature.inputs.files) {
    const buffers = raw[input.name] ?? [];
    // An optional input (face swapping's or reimagine's mask) may be left out; its count applies when sent.
    if (buffers.length === 0 && !input.required) continue;
    if (buffers.length < input.minCount) {
      if (input.minCount === 1) throw new AppError("invalid-input", `The "${input.name}" file is required.`);
      throw new AppError("invalid-input", `"${input.name}" needs at least ${input.minCount} files.`);
    }
    result[input.name] = [];
    for (const buffer of buffers) {
      result[input.name]?.push(
        input.kind === "image" ? await validateImage(input, buffer) : await validateAudio(input, buffer),
      );
    }
  }
  return result;
}

async function validateImage(input: FileInput, buffer: Buffer): Promise<ValidatedFile> {
  const { fileTypeFromBuffer } = await loadFileType();
  const type = await fileTypeFromBuffer(buffer);
  const mimeType = type ? IMAGE_TYPES.get(type.mime) : undefined;
  if (!mimeType) {
    throw new AppError("unsupported-file-type", IMAGE_TYPE_REFUSED);
  }
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Only the header is read here; the pixel limit below, not sharp's default, decides.
    const sharp = await loadSharp();
    ({ width, height } = await sharp(buffer, { limitInputPixels: false }).metadata());
  } catch {
    throw new AppError("unreadable-file", IMAGE_UNREADABLE.message);
  }
  if (!width || !height) throw new AppError("unreadable-file", IMAGE_UNREADABLE.message);
  if (input.maxPixels !== undefined && width * height > input.maxPixels) {
    const message =
      input.maxPixels === MAX_UPSCALE_PIXELS
        ? UPSCALE_PIXELS_EXCEEDED.message
        : IMAGE_PIXELS_EXCEEDED.message;
    throw new AppError("image-dimensions-exceeded", message);
  }
  const extension = mimeType === "image/jpeg" ? "jpg" : mimeType.split("/")[1];
  return { buffer, mimeType, filename: `${input.name}.${extension}`, width, height };
}

const AUDIO_FORMATS: Record<string, AudioFormat> = {
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
};
/** How far past the limit a decoder needs to go to tell a file is too long. */
const AUDIO_CAP_MARGIN_SECONDS = 1;
/** Without a limit in the catalog, decoding still stops somewhere. */
const AUDIO_DEFAULT_CAP_SECONDS = 3_600;

/**
 * Checks an audio file by its content and measures its real length (see audio-length.ts): what is
 * billed per minute is what plays, whatever the file's metadata claims.
 */
async function validateAudio(input: FileInput, buffer: Buffer): Promise<ValidatedFile> {
  const { fileTypeFromBuffer } = await loadFileType();
  const type = await fileTypeFromBuffer(buffer);
  const mimeType = type ? AUDIO_TYPES.get(type.mime) : undefined;
  const format = mimeType ? AUDIO_FORMATS[mimeType] : undefined;
  if (!mimeType || !format) throw new AppError("unsupported-file-type", AUDIO_TYPE_REFUSED);
  const cap = (input.maxSeconds ?? AUDIO_DEFAULT_CAP_SECONDS) + AUDIO_CAP_MARGIN_SECONDS;
  let durationSeconds: number | undefined;
  try {
    durationSeconds = await measureAudioSeconds(buffer, format, cap);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("unreadable-file", AUDIO_UNREADABLE.message);
  }
  if (durationSeconds === undefined || !Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw new AppError("unreadable-file", AUDIO_UNREADABLE.message);
  }
  if (input.maxSeconds !== undefined && durationSeconds > input.maxSeconds) {
    throw new AppError("audio-too-long", AUDIO_TOO_LONG.message);
  }
  return { buffer, mimeType, filename: `${input.name}.${format}`, durationSeconds };
}

import { z } from "zod";
import type { EndpointDescriptor } from "./endpoint-descriptor";
import { singleLine } from "./fields";
import { DEFAULT_LANGUAGE, languageCodeSchema } from "./languages";
import {
  ACCEPTED_AUDIO_EXTENSIONS,
  ACCEPTED_AUDIO_MIME_TYPES,
  ACCEPTED_IMAGE_EXTENSIONS,
  ACCEPTED_IMAGE_MIME_TYPES,
  AUDIO_BILLING_SECONDS,
  CFG_MAX,
  CFG_MIN,
  DEFAULT_RESOLUTION,
  GENERATION_MAX_SIDE,
  GENERATION_MIN_SIDE,
  GENERATIVE_FILL_DEFAULT_CFG,
  GENERATIVE_FILL_DEFAULT_DENOISE,
  IDENTITY_REQUEST_HEADER,
  MAX_AUDIO_BYTES,
  MAX_AUDIO_SECONDS,
  MAX_EXTENSION_SIDE,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_UPSCALE_PIXELS,
  NAME_MAX_LENGTH,
  PIXELS_PER_MEGAPIXEL,
  PROMPT_MAX_LENGTH,
  REIMAGINE_DENOISE_DEFAULT,
  REIMAGINE_DENOISE_MAX,
  REIMAGINE_DENOISE_MIN,
  REIMAGINE_DENOISE_STEP,
  SECONDS_PER_MINUTE,
  TRAINING_EXPECTED_MINUTES,
  TRAINING_IMAGE_SHORT_SIDE,
  TRAINING_MAX_IMAGES,
  TRAINING_MIN_IMAGES,
} from "./limits";
import {
  AI_CLONE_NAME_MISSING,
  DELETE_AI_CLONE_TITLE,
  DELETE_IMAGE_TITLE,
  DELETE_TRANSCRIPTION_TITLE,
  ERROR_DIALOGS,
  EXTENSION_SIDE_REQUIRED,
  IMAGE_PIXELS_EXCEEDED,
  IMAGE_PIXELS_EXCEEDED_ALT,
  IMAGE_PIXELS_EXCEEDED_PLAIN,
  type TitledMessage,
  UPSCALE_PIXELS_EXCEEDED,
} from "./messages";

/**
 * The feature catalog: the 13 paid feature calls of the spec and everything the
 * server, the playground screens, the usage page and the API snippets need to know about each. Feature
 * calls are multipart (`POST <endpoint>`, files plus string fields) and authenticate with a session plus
 * the `x-authorization-project` header, or with an API key.
 */

// ---------------------------------------------------------------------------------------------------
// Descriptors.
// ---------------------------------------------------------------------------------------------------

export type FileKind = "image" | "audio";

export interface FileInput {
  /** The multipart field name. */
  readonly name: string;
  readonly required: boolean;
  readonly kind: FileKind;
  /** How many files the field takes (repeat the field name for several). */
  readonly minCount: number;
  readonly maxCount: number;
  readonly maxBytes: number;
  /** Width times height limit of an image, checked from the header before decoding. */
  readonly maxPixels?: number;
  /** What the playground says when an image is over `maxPixels` (the wording differs per screen). */
  readonly pixelLimitMessage?: TitledMessage;
  /** Longest playable duration of an audio file. */
  readonly maxSeconds?: number;
  /**
   * A debugging input the playground offers only outside production (reimagine's mask); a production
   * server refuses a call that sends it.
   */
  readonly nonProductionOnly?: boolean;
  readonly acceptedExtensions: readonly string[];
  readonly acceptedMimeTypes: readonly string[];
  readonly description: string;
}

export type BodyFieldType = "string" | "number" | "boolean" | "enum";

export interface BodyField {
  /** The multipart field name (snake_case, as the public API spells it). */
  readonly name: string;
  readonly type: BodyFieldType;
  readonly required: boolean;
  readonly integer?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly maxLength?: number;
  readonly default?: string | number | boolean;
  /** Allowed values of an enum field. */
  readonly values?: readonly string[];
  /**
   * A debugging control: the playground shows and sends it only outside production, and a production
   * server refuses a call that sends it (so what production bills is what production offers).
   */
  readonly nonProductionOnly: boolean;
  readonly description: string;
}

export interface HeaderInput {
  readonly name: string;
  readonly required: boolean;
  /** The header is required whenever this body field is present. */
  readonly requiredWith?: string;
  readonly description: string;
}

export type BillingUnit = "call" | "image" | "audio-minute";

/** What one unit of each billing unit is called on the usage page ("3 images", "1 minute"). */
export const BILLING_UNIT_NAMES: Record<BillingUnit, { readonly one: string; readonly other: string }> = {
  call: { one: "call", other: "calls" },
  image: { one: "image", other: "images" },
  "audio-minute": { one: "minute", other: "minutes" },
};

/** "1 image", "1,234 calls", "5 minutes". */
export function formatBillingUnits(units: number, unit: BillingUnit): string {
  const names = BILLING_UNIT_NAMES[unit];
  const shown = units.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return `${shown} ${units === 1 ? names.one : names.other}`;
}

export interface FeatureBilling {
  readonly unit: BillingUnit;
  /** Price of one unit in micro-dollars unless the organization has its own price. */
  readonly defaultPriceMicros: number;
  /** Price of one unit when an AI Clone is used (the spec's `priceIdentity`). */
  readonly identityPriceMicros?: number;
}

export interface FeatureCallType {
  /** Lower case, as statistics records carry it. */
  readonly callType: string;
  /** The usage page's display name of this call type. */
  readonly name: string;
  /** Its own usage colour, when it is shown apart from its feature's other call types. */
  readonly color?: `#${string}`;
}

export interface FeatureDefinition {
  /** Kebab slug, the last segment of the playground route. */
  readonly id: string;
  readonly endpoint: `/v1/${string}`;
  readonly playgroundRoute: `/playground/${string}`;
  readonly name: string;
  /** Distinct; the usage page sorts features by it, descending. */
  readonly orderPos: number;
  /**
   * The feature's colour in every usage chart, legend and table ("#rrggbb"); distinct from every other
   * feature's and call type's, so a feature keeps its colour whatever else a month shows.
   */
  readonly color: `#${string}`;
  readonly description: string;
  readonly inputs: {
    readonly files: readonly FileInput[];
    /** Read from `bodySchema` (see `bodyFieldsOf`), never written by hand. */
    readonly body: readonly BodyField[];
  };
  /** Parses the non-file multipart fields, which arrive as strings. */
  readonly bodySchema: z.ZodType;
  readonly headers: readonly HeaderInput[];
  readonly billing: FeatureBilling;
  readonly callTypes: readonly FeatureCallType[];
  readonly historyListName: string;
  readonly historyLoadError: TitledMessage;
  readonly deleteConfirmTitle: string;
  readonly deleteError: TitledMessage;
  /** The dialog shown when the call fails; null where the history item is only marked Generation Error. */
  readonly failureDialog: TitledMessage | null;
  /** The name a downloaded result gets; null when there is nothing to download. */
  readonly downloadName: string | null;
  /** The menu entry is shown only outside production. */
  readonly productionHidden: boolean;
  readonly mobileUnavailable: boolean;
  /** Locked for an organization until its first deposit. */
  readonly requiresFirstDeposit: boolean;
  /**
   * The call answers once the model has accepted the work, which goes on in the background (the job
   * queue follows its status): AI Clone training.
   */
  readonly asynchronous: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Multipart field parsers: every value arrives as a string, and an empty one means "not given". Each
// parser carries the facts zod cannot say (description, step, debugging-only) as `.meta()`, so a body
// field is written once, as its parser, and its descriptor is read back from it.
// ---------------------------------------------------------------------------------------------------

/** What a body field's parser carries beside its rules. */
export type BodyFieldMeta = {
  readonly description: string;
  /** See `BodyField.nonProductionOnly`; false when left out. */
  readonly nonProductionOnly?: boolean;
  /** The increment of the playground's control. */
  readonly step?: number;
};

function emptyToUndefined(value: unknown): unknown {
  return value === "" || value === null ? undefined : value;
}

const TRUE_TEXTS = new Set(["true", "1", "on", "yes"]);
const FALSE_TEXTS = new Set(["false", "0", "off", "no"]);

/** `z.coerce.boolean()` would read "false" as true, so form booleans are parsed by their text. */
function formBoolean(meta: BodyFieldMeta) {
  return z.preprocess((value) => {
    const given = emptyToUndefined(value);
    if (typeof given !== "string") {
      return given;
    }
    const text = given.trim().toLowerCase();
    if (TRUE_TEXTS.has(text)) {
      return true;
    }
    return FALSE_TEXTS.has(text) ? false : given;
  }, z.boolean().default(false).meta(meta));
}

function formNumber(min: number, max: number) {
  return z.coerce.number().finite().min(min).max(max);
}

function formInteger(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}

function optional<T extends z.ZodType>(schema: T, meta: BodyFieldMeta) {
  return z.preprocess(emptyToUndefined, schema.optional().meta(meta));
}

function withDefault<T extends z.ZodType>(schema: T, value: z.output<T>, meta: BodyFieldMeta) {
  return z.preprocess(emptyToUndefined, schema.default(value as never).meta(meta));
}

const PROMPT_DESCRIPTION = "What the image should show.";
const promptSchema = z
  .string()
  .trim()
  .min(1, "Please enter a prompt.")
  .max(PROMPT_MAX_LENGTH)
  .meta({ description: PROMPT_DESCRIPTION });

function optionalPromptSchema(description = PROMPT_DESCRIPTION) {
  return optional(z.string().trim().max(PROMPT_MAX_LENGTH), { description });
}

function sideSchema(name: "width" | "height") {
  return withDefault(formInteger(GENERATION_MIN_SIDE, GENERATION_MAX_SIDE), DEFAULT_RESOLUTION[name], {
    description: `Output ${name} in pixels.`,
  });
}

function denoiseSchema(defaultValue: number, nonProductionOnly: boolean) {
  return withDefault(formNumber(REIMAGINE_DENOISE_MIN, REIMAGINE_DENOISE_MAX), defaultValue, {
    description: "How far the result may move away from the original (higher changes more).",
    nonProductionOnly,
    step: REIMAGINE_DENOISE_STEP,
  });
}

function extensionSideSchema(name: "top" | "bottom" | "left" | "right") {
  return withDefault(formInteger(0, MAX_EXTENSION_SIDE), 0, { description: `Pixels to add on the ${name}.` });
}

const identityIdSchema = z.string().trim().min(1).max(NAME_MAX_LENGTH);

const artisticSchema = () =>
  formBoolean({ description: "Use the artistic checkpoint instead of the photographic one." });

// ---------------------------------------------------------------------------------------------------
// Body field descriptors, read from the parsers.
// ---------------------------------------------------------------------------------------------------

/** The JSON Schema (with `io: "input"`) of one field's rule, with the metadata the parser carries. */
type FieldJsonSchema = {
  readonly type?: string;
  readonly description?: string;
  readonly default?: string | number | boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly enum?: readonly string[];
  readonly step?: number;
  readonly nonProductionOnly?: boolean;
};

/**
 * The rule a multipart parser applies after its preprocessing. A `z.preprocess` wrapper has no JSON
 * Schema of its own (its input is whatever arrives), so the descriptor is read from what it feeds.
 */
function ruleOf(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodPipe && schema.in instanceof z.ZodTransform
    ? (schema.out as z.ZodType)
    : schema;
}

/** A multipart field carries one value, so these are the only JSON Schema types a body field has. */
const FIELD_TYPES: Partial<Record<string, BodyFieldType>> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
};

function describeField(name: string, json: FieldJsonSchema, required: boolean): BodyField {
  if (!json.description) throw new Error(`Body field "${name}" has no description.`);
  const type = json.enum ? "enum" : FIELD_TYPES[json.type ?? ""];
  if (!type) throw new Error(`Body field "${name}" is not a string, number, boolean or enum.`);
  // Written in the order of `BodyField`, so a descriptor serializes the same whichever facts it has.
  return {
    name,
    type,
    required,
    ...(json.type === "integer" && { integer: true }),
    ...(json.minimum !== undefined && { min: json.minimum }),
    ...(json.maximum !== undefined && { max: json.maximum }),
    ...(json.step !== undefined && { step: json.step }),
    ...(json.maxLength !== undefined && { maxLength: json.maxLength }),
    ...(json.default !== undefined && { default: json.default }),
    ...(json.enum && { values: [...json.enum] }),
    nonProductionOnly: json.nonProductionOnly === true,
    description: json.description,
  };
}

/**
 * A feature's body field descriptors, in the schema's field order: type, bounds, default and allowed
 * values from the JSON Schema of each field's rule (`io: "input"`, where a field with a default is not
 * required), description, step and debugging-only from its `.meta()`.
 */
export function bodyFieldsOf(schema: z.ZodObject): BodyField[] {
  const rules = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, ruleOf(field as z.ZodType)]),
  );
  const json = z.toJSONSchema(z.object(rules), { io: "input", unrepresentable: "throw" }) as {
    properties?: Record<string, FieldJsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, field]) =>
    describeField(name, field, json.required?.includes(name) ?? false),
  );
}

// ---------------------------------------------------------------------------------------------------
// Input descriptors shared by several features.
// ---------------------------------------------------------------------------------------------------

function imageFile(name: string, description: string, overrides: Partial<FileInput> = {}): FileInput {
  return {
    name,
    required: true,
    kind: "image",
    minCount: 1,
    maxCount: 1,
    maxBytes: MAX_IMAGE_BYTES,
    maxPixels: MAX_IMAGE_PIXELS,
    pixelLimitMessage: IMAGE_PIXELS_EXCEEDED,
    acceptedExtensions: ACCEPTED_IMAGE_EXTENSIONS,
    acceptedMimeTypes: ACCEPTED_IMAGE_MIME_TYPES,
    description,
    ...overrides,
  };
}

const IMAGE_INPUT = imageFile("image", "The image to work on.");
/** The image of the screens that take a mask or faces, which word the pixel refusal their own way. */
const MASKED_IMAGE_INPUT = imageFile("image", "The image to work on.", {
  pixelLimitMessage: IMAGE_PIXELS_EXCEEDED_ALT,
});
const MASK_INPUT = imageFile(
  "mask",
  "White where the image should change, black elsewhere, same size as the image.",
  { pixelLimitMessage: IMAGE_PIXELS_EXCEEDED_ALT },
);

const IDENTITY_HEADER: HeaderInput = {
  name: IDENTITY_REQUEST_HEADER,
  required: true,
  description: "The request id of the AI Clone's training (the clone's `id` in get-trained-identities).",
};

function imageHistory(loadError: TitledMessage) {
  return {
    historyListName: "Your Images",
    historyLoadError: loadError,
    deleteConfirmTitle: DELETE_IMAGE_TITLE,
    deleteError: ERROR_DIALOGS.deleteImage,
    downloadName: "image.png",
  } as const;
}

const ALWAYS_AVAILABLE = {
  productionHidden: false,
  mobileUnavailable: false,
  requiresFirstDeposit: false,
  asynchronous: false,
} as const;

/** A feature as written: its body descriptors are read from its body schema, not written beside it. */
type FeatureSource = Omit<FeatureDefinition, "inputs" | "bodySchema"> & {
  readonly inputs: { readonly files: readonly FileInput[] };
  readonly bodySchema: z.ZodObject;
};

function defineFeature<const T extends FeatureSource>(
  feature: T,
): Omit<T, "inputs"> & { readonly inputs: T["inputs"] & { readonly body: readonly BodyField[] } } {
  return { ...feature, inputs: { ...feature.inputs, body: bodyFieldsOf(feature.bodySchema) } };
}

// ---------------------------------------------------------------------------------------------------
// The features, in menu order; orderPos descends with it.
// ---------------------------------------------------------------------------------------------------

export const imageGenerationFeature = defineFeature({
  id: "image-generation",
  endpoint: "/v1/images/generation",
  playgroundRoute: "/playground/image-generation",
  name: "Image Generation",
  orderPos: 130,
  color: "#4c6ef5",
  description: "Creates an image from a text prompt, optionally steered away from a negative prompt.",
  inputs: {
    files: [],
  },
  bodySchema: z.object({
    prompt: promptSchema,
    negative_prompt: optionalPromptSchema("What the image should not show."),
    width: sideSchema("width"),
    height: sideSchema("height"),
  }),
  headers: [],
  billing: { unit: "image", defaultPriceMicros: 20_000 },
  callTypes: [{ callType: "generation", name: "Image Generation" }],
  ...imageHistory(ERROR_DIALOGS.retrieveYourImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const pegasusGenerationFeature = defineFeature({
  id: "pegasus-generation",
  endpoint: "/v1/images/pegasus-generation",
  playgroundRoute: "/playground/pegasus-generation",
  name: "Pegasus Generation",
  orderPos: 120,
  color: "#7048e8",
  description:
    "Creates an image from a text prompt with the Pegasus model, optionally featuring a trained AI Clone.",
  inputs: {
    files: [],
  },
  bodySchema: z.object({
    prompt: promptSchema,
    width: sideSchema("width"),
    height: sideSchema("height"),
    identity_id: optional(identityIdSchema, {
      description: "The AI Clone to feature (its identity_id); needs the identity request header.",
    }),
    artistic: artisticSchema(),
  }),
  headers: [{ ...IDENTITY_HEADER, required: false, requiredWith: "identity_id" }],
  billing: { unit: "image", defaultPriceMicros: 30_000, identityPriceMicros: 50_000 },
  callTypes: [
    { callType: "pegasus-generation", name: "Pegasus Generation" },
    { callType: "pegasus-generation-identity", name: "Pegasus Generation with AI Clone", color: "#c2255c" },
  ],
  ...imageHistory(ERROR_DIALOGS.retrieveYourImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const pegasusTrainingFeature = defineFeature({
  id: "pegasus-training",
  endpoint: "/v1/images/pegasus-training",
  playgroundRoute: "/playground/pegasus-training",
  name: "AI Clone Training",
  orderPos: 110,
  color: "#f783ac",
  description: `Trains an AI Clone of a person from ${TRAINING_MIN_IMAGES} to ${TRAINING_MAX_IMAGES} photos; training takes ${TRAINING_EXPECTED_MINUTES} minutes or more.`,
  inputs: {
    files: [
      imageFile(
        "images",
        `Photos of the person, each resized so its short side is ${TRAINING_IMAGE_SHORT_SIDE} px.`,
        {
          minCount: TRAINING_MIN_IMAGES,
          maxCount: TRAINING_MAX_IMAGES,
          pixelLimitMessage: IMAGE_PIXELS_EXCEEDED_PLAIN,
        },
      ),
    ],
  },
  bodySchema: z.object({
    description: singleLine(
      z
        .string({ error: AI_CLONE_NAME_MISSING.message })
        .trim()
        .min(1, AI_CLONE_NAME_MISSING.message)
        .max(NAME_MAX_LENGTH),
    ).meta({ description: "The AI Clone's name." }),
  }),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 5_000_000 },
  callTypes: [{ callType: "pegasus-training", name: "AI Clone Training" }],
  historyListName: "Your AI Clones",
  historyLoadError: ERROR_DIALOGS.retrieveAiClones,
  deleteConfirmTitle: DELETE_AI_CLONE_TITLE,
  deleteError: ERROR_DIALOGS.deleteAiClone,
  failureDialog: ERROR_DIALOGS.startTraining,
  downloadName: null,
  productionHidden: false,
  mobileUnavailable: false,
  requiresFirstDeposit: true,
  asynchronous: true,
});

export const generativeFillFeature = defineFeature({
  id: "generative-fill",
  endpoint: "/v1/images/generative-fill",
  playgroundRoute: "/playground/generative-fill",
  name: "Generative Fill",
  orderPos: 100,
  color: "#f76707",
  description: "Repaints the masked area of an image following a prompt.",
  inputs: {
    files: [MASKED_IMAGE_INPUT, MASK_INPUT],
  },
  bodySchema: z.object({
    prompt: optionalPromptSchema(),
    denoise: denoiseSchema(GENERATIVE_FILL_DEFAULT_DENOISE, true),
    cfg: withDefault(formNumber(CFG_MIN, CFG_MAX), GENERATIVE_FILL_DEFAULT_CFG, {
      description: "How strictly the result follows the prompt.",
      nonProductionOnly: true,
    }),
  }),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 30_000 },
  callTypes: [{ callType: "generative-fill", name: "Generative Fill" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: ERROR_DIALOGS.removeObject,
  ...ALWAYS_AVAILABLE,
  mobileUnavailable: true,
});

export const objectRemovalFeature = defineFeature({
  id: "object-removal",
  endpoint: "/v1/images/object-removal",
  playgroundRoute: "/playground/object-removal",
  name: "Object Removal",
  orderPos: 90,
  color: "#e03131",
  description: "Removes the masked object from an image and fills the gap with matching surroundings.",
  inputs: { files: [MASKED_IMAGE_INPUT, MASK_INPUT] },
  bodySchema: z.object({}),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 20_000 },
  callTypes: [{ callType: "object-removal", name: "Object Removal" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: ERROR_DIALOGS.removeObject,
  ...ALWAYS_AVAILABLE,
  mobileUnavailable: true,
});

export const textRemovalFeature = defineFeature({
  id: "text-removal",
  endpoint: "/v1/images/text-removal",
  playgroundRoute: "/playground/text-removal",
  name: "Text Removal",
  orderPos: 80,
  color: "#fab005",
  description: "Finds the text in an image and paints it out.",
  inputs: {
    files: [IMAGE_INPUT],
  },
  bodySchema: z.object({
    fast_mode: formBoolean({ description: "Trade quality for speed.", nonProductionOnly: true }),
  }),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 15_000 },
  callTypes: [{ callType: "text-removal", name: "Text Removal" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const imageExtensionFeature = defineFeature({
  id: "image-extension",
  endpoint: "/v1/images/extension",
  playgroundRoute: "/playground/image-extension",
  name: "Image Extension",
  orderPos: 70,
  color: "#2f9e44",
  description: `Extends an image beyond its borders; no side of the result may exceed ${MAX_EXTENSION_SIDE} px.`,
  inputs: {
    files: [IMAGE_INPUT],
  },
  bodySchema: z
    .object({
      top: extensionSideSchema("top"),
      bottom: extensionSideSchema("bottom"),
      left: extensionSideSchema("left"),
      right: extensionSideSchema("right"),
    })
    .refine((sides) => sides.top + sides.bottom + sides.left + sides.right > 0, {
      message: EXTENSION_SIDE_REQUIRED,
    }),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 30_000 },
  callTypes: [{ callType: "extension", name: "Image Extension" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const backgroundRemovalFeature = defineFeature({
  id: "image-background-removal",
  endpoint: "/v1/images/background-removal",
  playgroundRoute: "/playground/image-background-removal",
  name: "Background Removal",
  orderPos: 60,
  color: "#12b886",
  description: "Cuts the main subject out of an image onto a transparent background.",
  inputs: { files: [IMAGE_INPUT] },
  bodySchema: z.object({}),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 10_000 },
  callTypes: [{ callType: "background-removal", name: "Background Removal" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const upscalingFeature = defineFeature({
  id: "image-upscaling",
  endpoint: "/v1/images/upscaling",
  playgroundRoute: "/playground/image-upscaling",
  name: "Image Upscaling",
  orderPos: 50,
  color: "#15aabf",
  description: `Enlarges an image of up to ${MAX_UPSCALE_PIXELS / PIXELS_PER_MEGAPIXEL} megapixels while keeping it sharp.`,
  inputs: {
    files: [{ ...IMAGE_INPUT, maxPixels: MAX_UPSCALE_PIXELS, pixelLimitMessage: UPSCALE_PIXELS_EXCEEDED }],
  },
  bodySchema: z.object({}),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 20_000 },
  callTypes: [{ callType: "upscaling", name: "Image Upscaling" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const transcriptionFeature = defineFeature({
  id: "speech-to-text",
  endpoint: "/v1/speech/transcription",
  playgroundRoute: "/playground/speech-to-text",
  name: "Speech to Text",
  orderPos: 40,
  color: "#1c7ed6",
  description: `Transcribes speech in an audio file of up to ${MAX_AUDIO_SECONDS / SECONDS_PER_MINUTE} minutes into timed text segments.`,
  inputs: {
    files: [
      {
        name: "audio",
        required: true,
        kind: "audio",
        minCount: 1,
        maxCount: 1,
        maxBytes: MAX_AUDIO_BYTES,
        maxSeconds: MAX_AUDIO_SECONDS,
        acceptedExtensions: ACCEPTED_AUDIO_EXTENSIONS,
        acceptedMimeTypes: ACCEPTED_AUDIO_MIME_TYPES,
        description: "The recording to transcribe.",
      },
    ],
  },
  bodySchema: z.object({
    language: withDefault(languageCodeSchema, DEFAULT_LANGUAGE, { description: "The spoken language." }),
  }),
  headers: [],
  billing: { unit: "audio-minute", defaultPriceMicros: 6_000 },
  callTypes: [{ callType: "transcription", name: "Speech to Text" }],
  historyListName: "Your Audio Transcriptions",
  historyLoadError: ERROR_DIALOGS.retrieveTranscriptions,
  deleteConfirmTitle: DELETE_TRANSCRIPTION_TITLE,
  deleteError: ERROR_DIALOGS.deleteTranscription,
  failureDialog: null,
  downloadName: "speech.json",
  ...ALWAYS_AVAILABLE,
});

export const faceSwappingFeature = defineFeature({
  id: "face-swapping",
  endpoint: "/v1/images/face-swapping",
  playgroundRoute: "/playground/face-swapping",
  name: "Face Swapping",
  orderPos: 30,
  color: "#94d82d",
  description:
    "Puts the face of the source image onto the target image with a classical landmark-based swap (warp and blend), not a generative model.",
  inputs: {
    files: [
      imageFile("source", "The image with the face to use.", {
        pixelLimitMessage: IMAGE_PIXELS_EXCEEDED_ALT,
      }),
      imageFile("target", "The image with the face to replace.", {
        pixelLimitMessage: IMAGE_PIXELS_EXCEEDED_ALT,
      }),
      { ...MASK_INPUT, required: false, description: "Optional: where on the target the face may change." },
    ],
  },
  bodySchema: z.object({}),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 20_000 },
  callTypes: [{ callType: "face-swapping", name: "Face Swapping" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: ERROR_DIALOGS.swapFaces,
  ...ALWAYS_AVAILABLE,
});

export const reimagineFeature = defineFeature({
  id: "reimagine",
  endpoint: "/v1/images/reimagine",
  playgroundRoute: "/playground/reimagine",
  name: "Reimagine",
  orderPos: 20,
  color: "#a0522d",
  description: "Creates a variation of an image, optionally only inside a mask.",
  inputs: {
    files: [
      IMAGE_INPUT,
      {
        ...MASK_INPUT,
        required: false,
        nonProductionOnly: true,
        description: "Optional, outside production only: the area to change.",
      },
    ],
  },
  bodySchema: z.object({
    denoise: denoiseSchema(REIMAGINE_DENOISE_DEFAULT, false),
  }),
  headers: [],
  billing: { unit: "call", defaultPriceMicros: 30_000 },
  callTypes: [{ callType: "reimagine", name: "Reimagine" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: null,
  ...ALWAYS_AVAILABLE,
});

export const identityInpaintingFeature = defineFeature({
  id: "identity-inpainting",
  endpoint: "/v1/images/identity-inpainting",
  playgroundRoute: "/playground/identity-inpainting",
  name: "Identity Inpainting",
  orderPos: 10,
  color: "#cc5de8",
  description: "Paints a trained AI Clone into the masked area of an image, following an optional prompt.",
  inputs: {
    files: [MASKED_IMAGE_INPUT, MASK_INPUT],
  },
  bodySchema: z.object({
    identity_id: identityIdSchema.meta({ description: "The AI Clone to paint in (its identity_id)." }),
    artistic: artisticSchema(),
    prompt: optionalPromptSchema(),
  }),
  headers: [IDENTITY_HEADER],
  billing: { unit: "call", defaultPriceMicros: 50_000 },
  callTypes: [{ callType: "identity-inpainting", name: "Identity Inpainting" }],
  ...imageHistory(ERROR_DIALOGS.retrieveImages),
  failureDialog: ERROR_DIALOGS.inpaintImage,
  ...ALWAYS_AVAILABLE,
  productionHidden: true,
  mobileUnavailable: true,
});

/** Every feature, in menu order. */
export const FEATURES = [
  imageGenerationFeature,
  pegasusGenerationFeature,
  pegasusTrainingFeature,
  generativeFillFeature,
  objectRemovalFeature,
  textRemovalFeature,
  imageExtensionFeature,
  backgroundRemovalFeature,
  upscalingFeature,
  transcriptionFeature,
  faceSwappingFeature,
  reimagineFeature,
  identityInpaintingFeature,
] as const;

export type Feature = (typeof FEATURES)[number];
export type FeatureId = Feature["id"];

/** The endpoint values get-requests accepts, in the order the spec lists them. */
export const FEATURE_ENDPOINTS = [
  "/v1/images/generation",
  "/v1/images/upscaling",
  "/v1/images/object-removal",
  "/v1/images/generative-fill",
  "/v1/images/pegasus-generation",
  "/v1/images/pegasus-training",
  "/v1/images/text-removal",
  "/v1/images/face-swapping",
  "/v1/images/reimagine",
  "/v1/images/identity-inpainting",
  "/v1/images/background-removal",
  "/v1/images/extension",
  "/v1/speech/transcription",
] as const satisfies readonly Feature["endpoint"][];

export type FeatureEndpoint = (typeof FEATURE_ENDPOINTS)[number];

export const featureEndpointSchema = z.enum(FEATURE_ENDPOINTS);

export function featureByEndpoint(endpoint: string): Feature | undefined {
  return FEATURES.find((feature) => feature.endpoint === endpoint);
}

export function featureById(id: string): Feature | undefined {
  return FEATURES.find((feature) => feature.id === id);
}

/** The usage page's descriptors: one per call type, orderPos descending within a feature. */
export const ENDPOINT_DESCRIPTORS: readonly EndpointDescriptor[] = FEATURES.flatMap((feature) =>
  feature.callTypes.map((callType, index) => ({
    endpoint: feature.endpoint,
    callType: callType.callType,
    name: callType.name,
    orderPos: feature.orderPos - index,
  })),
);

/**
 * The usage colour of a statistics series: its call type's own colour, else its feature's; undefined
 * for an endpoint outside the catalog.
 */
export function usageColor(endpoint: string, callType: string): `#${string}` | undefined {
  const feature = featureByEndpoint(endpoint);
  if (!feature) return undefined;
  const own = (feature.callTypes as readonly FeatureCallType[]).find(
    (candidate) => candidate.callType === callType.toLowerCase(),
  );
  return own?.color ?? feature.color;
}

/** Whole minutes billed for an audio file: its length rounded up, at least one. */
export function billableAudioMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / AUDIO_BILLING_SECONDS));
}

/**
 * The units one call of a feature consumes: one for per-call and per-image features (the playground
 * sends one call per image), the started minutes of the audio for transcription.
 */
export function billableUnits(feature: Pick<FeatureDefinition, "billing">, audioSeconds = 0): number {
  return feature.billing.unit === "audio-minute" ? billableAudioMinutes(audioSeconds) : 1;
}

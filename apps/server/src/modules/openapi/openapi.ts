import {
  API_KEY_PREFIX,
  apiKeyLimitsSchema,
  type BodyField,
  backgroundRemovalFeature,
  COST_DECIMALS,
  calls,
  ERROR_CODES,
  type ErrorCode,
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURES,
  type Feature,
  type FeatureCallResponse,
  type FileInput,
  featureCallResponse,
  formatMicros,
  type GetTrainedIdentitiesResponse,
  IDEMPOTENCY_KEY_HEADER_NAME,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETENTION_HOURS,
  IDEMPOTENCY_WAIT_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  IDENTITY_REQUEST_HEADER,
  MODEL_SERVERS_DOCS_PATH,
  microsToUsd,
  NEEDS_MODEL_SERVER_BADGE,
  PLAYGROUND_CALLER,
  PRODUCT_NAME,
  PROVIDER_SETUPS,
  pegasusTrainingFeature,
  REQUEST_DETAIL_PATH,
  type RequestDetail,
  requestDetailSchema,
  SDK_PACKAGE_NAME,
  statusOf,
  THUMBNAIL_MAX_SIDE,
  THUMBNAIL_SUFFIX,
  TRAINING_EXPECTED_MINUTES,
  trainingResultSchema,
  transcriptionResultSchema,
  UNAVAILABLE_BADGE,
  USAGE_GROUPS,
  USAGE_MAX_DAYS,
  USAGE_PATH,
  type UsageResponse,
  usageResponse,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TIMEOUT_MS,
} from "@prism/contract";
import { curlSnippet } from "@prism/contract/snippets";
import { z } from "zod";

/**
 * The public API's OpenAPI 3.1 document, generated from the feature catalog and the contract's zod
 * schemas: adding a feature or a field to the catalog documents it, with nothing written twice.
 */

export type JsonObject = Record<string, unknown>;

export interface OpenApiDocument extends JsonObject {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, { get?: JsonObject; post?: JsonObject }>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
  };
  tags: { name: string; description: string }[];
  /** What the organization's webhook endpoints receive (OpenAPI 3.1 `webhooks`). */
  webhooks: Record<string, { post: JsonObject }>;
}

export interface OpenApiOptions {
  /** `info.version` (default "1.0.0"). */
  version?: string;
}

export const ERROR_SCHEMA_REF = "#/components/schemas/Error";
export const SECURITY_SCHEME = "apiKey";

// ---------------------------------------------------------------------------------------------------
// Errors: which codes a feature call can answer with, grouped by their status in the contract.
// ---------------------------------------------------------------------------------------------------

/** The error codes a feature call can produce; their statuses come from the contract. */
export const FEATURE_CALL_ERROR_CODES: readonly ErrorCode[] = [
  "invalid-input",
  "unauthenticated",
  "invalid-api-key",
  "api-key-expired",
  "insufficient-balance",
  "first-deposit-required",
  "key-spend-cap-reached",
  "forbidden",
  "key-feature-not-allowed",
  "ip-not-allowed",
  "not-found",
  "route-not-found",
  "identity-not-ready",
  "idempotency-in-progress",
  "payload-too-large",
  "file-too-large",
  "image-dimensions-exceeded",
  "audio-too-long",
  "unsupported-media-type",
  "unsupported-file-type",
  "unprocessable-input",
  "unreadable-file",
  "idempotency-key-reused",
  "rate-limited",
  "internal-error",
  "feature-failed",
  "feature-unavailable",
  "feature-timeout",
  "service-unavailable",
];

/** What each status means for a feature call; the codes listed under it are derived from the contract. */
export const STATUS_MEANINGS: Record<number, { name: string; meaning: string }> = {
  400: {
    name: "BadRequest",
    meaning: "The input is invalid: a field is missing, has the wrong type or is out of range.",
  },
  401: {
    name: "Unauthorized",
    meaning: `No credentials, or the API key is unknown, revoked or past its expiry (\`api-key-expired\`). Send \`Authorization: Bearer ${API_KEY_PREFIX}...\`.`,
  },
  402: {
    name: "PaymentRequired",
    meaning:
      "The organization's balance cannot pay for the call, or the call would take the API key over its monthly or lifetime spend cap (`key-spend-cap-reached`); nothing is charged. Or AI Clone training is locked until the organization's first deposit.",
  },
  403: {
    name: "Forbidden",
    meaning:
      "The credentials are valid but not allowed here: not this project, a feature the API key may not call (`key-feature-not-allowed`), or an address outside the key's IP allowlist (`ip-not-allowed`).",
  },
  404: {
    name: "NotFound",
    meaning: "The endpoint does not exist, or the AI Clone named in the call is not one of this project's.",
  },
  409: {
    name: "Conflict",
    meaning:
      "The AI Clone named in the call has not finished training, or the first call with this `Idempotency-Key` was still running when the retry stopped waiting for it (`idempotency-in-progress`; retry later).",
  },
  413: {
    name: "PayloadTooLarge",
    meaning:
      "A file is larger than its limit in bytes, an image has more pixels than allowed, or an audio file is longer than allowed.",
  },
  415: {
    name: "UnsupportedMediaType",
    meaning:
      "The request is not multipart/form-data, or a file is not of an accepted type (checked by content).",
  },
  422: {
    name: "UnprocessableEntity",
    meaning:
      "The input is well formed but cannot be processed, e.g. a file that cannot be decoded, or the `Idempotency-Key` was used before for a different request (`idempotency-key-reused`).",
  },
  429: {
    name: "TooManyRequests",
    meaning:
      "Too many requests: the API key's requests per minute (the deployment's limit, or the key's own when lower), or the calls the organization has running at once, are over their limit. Wait the `Retry-After` header's seconds and retry; nothing was charged.",
  },
  500: {
    name: "InternalServerError",
    meaning: "An unexpected error on our side; the call was refunded.",
  },
  502: {
    name: "BadGateway",
    meaning: "The model behind the feature failed; the call was refunded.",
  },
  503: {
    name: "ServiceUnavailable",
    meaning:
      "The feature is not available on this deployment right now (no model configured or the model server is down); nothing was charged.",
  },
  504: {
    name: "GatewayTimeout",
    meaning: "The model behind the feature did not answer in time; the call was refunded.",
  },
};

/** Every status a feature call can answer with besides 200 (409 only where an AI Clone is named). */
export function errorStatusesOf(feature: Feature): number[] {
  const usesIdentity = feature.inputs.body.some((field) => field.name === "identity_id");
  const statuses = new Set(FEATURE_CALL_ERROR_CODES.map(statusOf));
  if (!usesIdentity) statuses.delete(409);
  return [...statuses].sort((a, b) => a - b);
}

function codesWithStatus(status: number): ErrorCode[] {
  return FEATURE_CALL_ERROR_CODES.filter((code) => statusOf(code) === status);
}

// ---------------------------------------------------------------------------------------------------
// JSON Schemas from zod.
// ---------------------------------------------------------------------------------------------------

/**
 * A zod schema as a JSON Schema (draft 2020-12, which OpenAPI 3.1 uses), without noise for readers:
 * of what the schema produces (answers) or, with `io: "input"`, of what it accepts (request bodies,
 * where a field with a default is optional).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonObject {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return tidy(generated) as JsonObject;
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as JsonObject).filter(
    ([key, inner]) =>
      key !== "$schema" &&
      // A `format` says it better than zod's long date-time regular expression.
      !(key === "pattern" && "format" in (value as JsonObject)) &&
      // Answers may gain fields over time; clients must ignore the ones they do not know.
      !(key === "additionalProperties" && inner === false),
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, tidy(inner)]));
}

// ---------------------------------------------------------------------------------------------------
// Fields.
// ---------------------------------------------------------------------------------------------------

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function fileLimits(file: FileInput): string {
  const limits = [`${file.acceptedExtensions.join(", ")}`, `at most ${megabytes(file.maxBytes)}`];
  if (file.maxPixels)
    limits.push(`at most ${Math.round((file.maxPixels / 1024 / 1024) * 10) / 10} megapixels`);
  if (file.maxSeconds) limits.push(`at most ${file.maxSeconds / 60} minutes long`);
  return limits.join("; ");
}

/** Said of the debugging inputs the playground offers only outside production. */
export const NON_PRODUCTION_NOTE =
  "A debugging option: a production deployment refuses calls that send it (400 `invalid-input`).";

export function fileProperty(file: FileInput): JsonObject {
  const binary = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };
  const description = `${file.description} ${capitalize(fileLimits(file))}.${file.nonProductionOnly ? ` ${NON_PRODUCTION_NOTE}` : ""}`;
  if (file.maxCount > 1) {
    return {
      type: "array",
      items: binary,
      minItems: file.minCount,
      maxItems: file.maxCount,
      description: `${description} Send ${file.minCount} to ${file.maxCount} files, repeating the field name.`,
      "x-accepted-types": file.acceptedMimeTypes,
    };
  }
  return { ...binary, description, "x-accepted-types": file.acceptedMimeTypes };
}

export function bodyProperty(field: BodyField): JsonObject {
  const schema: JsonObject = {
    description: field.nonProductionOnly ? `${field.description} ${NON_PRODUCTION_NOTE}` : field.description,
  };
  switch (field.type) {
    case "string":
      schema.type = "string";
      if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
      break;
    case "number":
      schema.type = field.integer ? "integer" : "number";
      if (field.min !== undefined) schema.minimum = field.min;
      if (field.max !== undefined) schema.maximum = field.max;
      if (field.step !== undefined) schema["x-step"] = field.step;
      break;
    case "boolean":
      schema.type = "boolean";
      break;
    case "enum":
      schema.type = "string";
      schema.enum = [...(field.values ?? [])];
      break;
  }
  if (field.default !== undefined) schema.default = field.default;
  return schema;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------------------
// Pricing and grouping.
// ---------------------------------------------------------------------------------------------------

const UNIT_TEXT: Record<Feature["billing"]["unit"], string> = {
  call: "per call",
  image: "per image",
  "audio-minute": "per started minute of audio (at least one)",
};

export function usd(micros: number): string {
  return formatMicros(BigInt(micros), COST_DECIMALS);
}

export function priceText(feature: Feature): string {
  const billing = feature.billing;
  const base = `${usd(billing.defaultPriceMicros)} ${UNIT_TEXT[billing.unit]}`;
  return "identityPriceMicros" in billing
    ? `${base}; ${usd(billing.identityPriceMicros)} with an AI Clone`
    : base;
}

export const TAGS = {
  generation: { name: "Image generation", description: "Images from text prompts." },
  editing: { name: "Image editing", description: "Changes to an image you send." },
  clones: { name: "AI Clones", description: "Training a person's likeness and painting it into images." },
  speech: { name: "Speech", description: "Speech recognition." },
  files: {
    name: "Files",
    description: "Downloading the stored inputs and results that answers link to.",
  },
  usage: {
    name: "Usage",
    description: "Following one call, and the project's usage and spend over a range of days.",
  },
} as const;

/** The feature's family, from what the catalog says about it. */
export function tagOf(feature: Feature): string {
  if (feature.endpoint.startsWith("/v1/speech/")) return TAGS.speech.name;
  if (feature.asynchronous || feature.headers.some((header) => header.required)) return TAGS.clones.name;
  if (feature.inputs.files.length === 0) return TAGS.generation.name;
  return TAGS.editing.name;
}

// ---------------------------------------------------------------------------------------------------
// Examples.
// ---------------------------------------------------------------------------------------------------

const EXAMPLE_TEXT: Record<string, string> = {
  prompt: "A lighthouse on a cliff at dusk, oil painting",
  negative_prompt: "blurry, text",
  description: "Ada",
  identity_id: "$IDENTITY_ID",
  language: "en",
};
/** Optional fields the examples set anyway, because leaving all of them out would not be a useful call. */
const EXAMPLE_OPTIONAL_NUMBERS: Record<string, number> = { top: 256, bottom: 256 };

const EXAMPLE_FILE_NAMES: Record<string, string> = {
  image: "photo.png",
  mask: "mask.png",
  source: "source.png",
  target: "target.png",
  audio: "speech.mp3",
};

function exampleFiles(file: FileInput): string[] {
  if (file.maxCount > 1) {
    return Array.from(
      { length: file.minCount },
      (_, index) => `photo${String(index + 1).padStart(2, "0")}.jpg`,
    );
  }
  return [EXAMPLE_FILE_NAMES[file.name] ?? `${file.name}.png`];
}

/** The body fields an example call sends, with example values. */
export function exampleBody(feature: Feature): Record<string, string | number | boolean> {
  const body: Record<string, string | number | boolean> = {};
  const fields: readonly BodyField[] = feature.inputs.body;
  for (const field of fields) {
    if (field.required) {
      body[field.name] = EXAMPLE_TEXT[field.name] ?? field.default ?? field.min ?? "example";
    } else if (field.name in EXAMPLE_OPTIONAL_NUMBERS) {
      body[field.name] = EXAMPLE_OPTIONAL_NUMBERS[field.name]!;
    } else if (field.name in EXAMPLE_TEXT && field.name !== "identity_id") {
      body[field.name] = EXAMPLE_TEXT[field.name]!;
    }
  }
  return body;
}

/** The cURL call shown in the reference: required inputs plus a few meaningful optional ones. */
export function curlExample(feature: Feature): string {
  const body = exampleBody(feature);
  const headers: Record<string, string> = {};
  for (const header of feature.headers) {
    if (header.required || (header.requiredWith && header.requiredWith in body)) {
      headers[header.name] = "$IDENTITY_REQUEST_ID";
    }
  }
  const fileNames = Object.fromEntries(
    feature.inputs.files.filter((file) => file.required).map((file) => [file.name, exampleFiles(file)]),
  );
  return curlSnippet(feature, {
    origin: "$ORIGIN",
    apiKey: "$PRISM_API_KEY",
    shellVariables: true,
    body,
    fileNames,
    headers,
  });
}

const EXAMPLE_IDS = {
  organization: "0d5b3c0e-6a43-4c1e-9d0b-2f3a9c1e7b10",
  project: "7c1e0f52-93a4-4b8e-a1d2-5e6f7a8b9c0d",
  request: "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
};

function exampleFileUrl(name: string): string {
  return `/v1/files/${EXAMPLE_IDS.organization}/${EXAMPLE_IDS.project}/${name}`;
}

/** Result bodies of the features that answer with JSON instead of an image. */
const JSON_RESULTS: Record<string, { schema: z.ZodType; example: unknown }> = {
  "speech-to-text": {
    schema: transcriptionResultSchema,
    example: {
      language: "en",
      segments: [
        { start: 0, end: 2.4, text: "Hello and welcome." },
        { start: 2.4, end: 5.1, text: "Today we talk about lighthouses." },
      ],
    },
  },
  "pegasus-training": {
    schema: trainingResultSchema,
    example: { identityId: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38", status: "pending" },
  },
};

/** A 200 answer as the feature would give it. */
export function exampleResponse(feature: Feature): FeatureCallResponse {
  const files: Record<string, string[]> = {};
  for (const file of feature.inputs.files) {
    if (!file.required) continue;
    files[file.name] = exampleFiles(file).map((name, index) =>
      exampleFileUrl(
        `${EXAMPLE_IDS.request}-${file.name}${file.maxCount > 1 ? `-${index + 1}` : ""}.${name.split(".").pop()}`,
      ),
    );
  }
  const jsonResult = JSON_RESULTS[feature.id];
  return {
    balance: 94.98,
    cost: microsToUsd(feature.billing.defaultPriceMicros),
    request: {
      id: EXAMPLE_IDS.request,
      request_date: "2026-05-04T10:21:33.000Z",
      request_data: { files, body: exampleBody(feature) },
      response_data: jsonResult
        ? { body: jsonResult.example }
        : { file: exampleFileUrl(`${EXAMPLE_IDS.request}-result.png`) },
      status: "done",
      cost: microsToUsd(feature.billing.defaultPriceMicros),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Files.
// ---------------------------------------------------------------------------------------------------

export const FILE_ROUTE = "/v1/files/{organizationId}/{projectId}/{name}";

/** What a stored file can be: images are re-encoded (PNG or JPEG, WebP thumbnails), audio is kept as sent. */
export const FILE_CONTENT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "audio/mpeg",
  "audio/wav",
  "audio/ogg",
  "audio/flac",
] as const;

function fileDownloadOperation(): JsonObject {
  const example = exampleFileUrl(`${EXAMPLE_IDS.request}-result.png`);
  return {
    operationId: "downloadFile",
    summary: "Download a file",
    description: [
      "Every URL in an answer's `request` (the inputs under `request_data.files`, the result under",
      "`response_data.file`) points here. Send the same API key: a key reads the files of its own",
      "project, and any other file answers 404, as if it did not exist.",
      "",
      "The URLs are paths on this origin (`/v1/files/...`), or absolute URLs when the deployment has its",
      "public address configured. Images are PNG or JPEG; add `" +
        THUMBNAIL_SUFFIX +
        `\` to an image's URL for a WebP thumbnail of at most ${THUMBNAIL_MAX_SIDE} px. Audio inputs are returned as uploaded.`,
    ].join("\n"),
    tags: [TAGS.files.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      {
        name: "organizationId",
        in: "path",
        required: true,
        description: "The organization of the project, as in the URL from the answer.",
        schema: { type: "string", format: "uuid" },
      },
      {
        name: "projectId",
        in: "path",
        required: true,
        description: "The project the file belongs to; it must be the API key's project.",
        schema: { type: "string", format: "uuid" },
      },
      {
        name: "name",
        in: "path",
        required: true,
        description: `The file's random name, as in the URL from the answer (with \`${THUMBNAIL_SUFFIX}\` for a thumbnail).`,
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "The file, with its content type.",
        content: Object.fromEntries(
          FILE_CONTENT_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
        ),
      },
      "404": {
        description:
          "No such file, no valid API key, or the file belongs to another project (a key reads only its own project's files). Codes: `not-found`.",
        content: {
          "application/json": {
            schema: { $ref: ERROR_SCHEMA_REF },
            example: { error: "not-found", message: "File not found." },
          },
        },
      },
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "$ORIGIN${example}" \\\n  -H "Authorization: Bearer $PRISM_API_KEY" \\\n  -o result.png`,
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// Guides.
// ---------------------------------------------------------------------------------------------------

/** The features the builtin CPU engine cannot run: they need a model server (or an OpenAI-compatible API). */
function modelServerGuide(): string {
  return [
    `Some features need an AI model on a GPU. ${PRODUCT_NAME} runs them on a **model server**: an HTTP service`,
    "you run next to the console (a ComfyUI workflow behind a small adapter, a diffusers or",
    `faster-whisper script...) that speaks ${PRODUCT_NAME}'s model-server protocol. The console does everything`,
    "else: keys, validation, billing, storage, history and refunds. Until one is connected, those features",
    `are marked **${NEEDS_MODEL_SERVER_BADGE}** here and in the console, and calls to them answer 503`,
    "`feature-unavailable` without charging anything.",
    "",
    "#### Connecting one",
    "",
    "Set these variables where the console server runs, then restart it:",
    "",
    "| Variable | Meaning |",
    "|---|---|",
    "| `MODEL_SERVER_URL` | the model server's base URL, e.g. `http://gpu-1:8000` |",
    "| `MODEL_SERVER_API_KEY` | sent as `Authorization: Bearer ...` to the model server (optional) |",
    "| `MODEL_SERVER_FEATURES` | the feature ids it serves, comma separated, or `all` (the default) |",
    "| `FEATURE_PROVIDERS` | an explicit provider per feature: `speech-to-text=openai,...` |",
    "| `OPENAI_API_KEY`, `OPENAI_BASE_URL` | an OpenAI-compatible API for image generation, generative fill and speech to text |",
    "",
    "#### Or a hosted platform, or your own ComfyUI",
    "",
    "One variable turns on every feature a platform's shipped model map serves (`docs/providers.md` of the",
    `${PRODUCT_NAME} repository lists the models, their licences and prices, and how to override them with \`PROVIDER_MODELS_FILE\`):`,
    "",
    "| Variable | Platform | Features |",
    "|---|---|---|",
    ...PROVIDER_SETUPS.filter((setup) => setup.provider !== "http" && setup.provider !== "openai").map(
      (setup) =>
        `| \`${setup.variable}\` | ${setup.label} | ${setup.features.length === FEATURES.length ? "all" : setup.features.map((id) => `\`${id}\``).join(", ")} |`,
    ),
    "",
    "The protocol (one `POST <base>/<feature id>` per call with the same multipart fields as this API,",
    `\`GET <base>/health\`, and the training status) is described in \`docs/model-server.md\` of the ${PRODUCT_NAME}`,
    "repository. The feature ids are those of the endpoints below:",
    "",
    "| Feature | Feature id |",
    "|---|---|",
    ...FEATURES.map((feature) => `| ${feature.name} | \`${feature.id}\` |`),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------------
// The document.
// ---------------------------------------------------------------------------------------------------

function operationId(feature: Feature): string {
  return feature.id.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function resultDescription(feature: Feature): string {
  if (feature.id === "pegasus-training") {
    return `The model server accepted the photos and the call was charged. \`request.response_data.body.identityId\` is the new AI Clone (its \`identity_id\` in later calls) and \`status\` its training's state, \`pending\` at first; training takes ${TRAINING_EXPECTED_MINUTES} minutes or more. Follow it with \`POST ${TRAINED_IDENTITIES_PATH}\` until it is \`ready\`, then send \`request.id\` in the \`${IDENTITY_REQUEST_HEADER}\` header with the \`identity_id\`.`;
  }
  if (JSON_RESULTS[feature.id]) {
    return "Done and charged. `request.response_data.body` holds the result.";
  }
  return "Done and charged. `request.response_data.file` is the URL of the result image (PNG); `request.request_data.files` lists the stored inputs.";
}

function responseSchemaOf(feature: Feature): JsonObject {
  const base = { $ref: "#/components/schemas/FeatureCallResponse" };
  const jsonResult = JSON_RESULTS[feature.id];
  if (!jsonResult) return base;
  const resultName = feature.id === "pegasus-training" ? "TrainingResult" : "TranscriptionResult";
  return {
    allOf: [
      base,
      {
        type: "object",
        properties: {
          request: {
            type: "object",
            properties: {
              response_data: {
                type: "object",
                properties: { body: { $ref: `#/components/schemas/${resultName}` } },
              },
            },
          },
        },
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// Headers: idempotency and the API key's rate limit (issue 17).
// ---------------------------------------------------------------------------------------------------

const RATE_LIMIT_HEADERS: Record<string, JsonObject> = {
  "RateLimit-Limit": {
    description: "Requests the API key may make per minute.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current minute.",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the current window ends and the count starts again.",
    schema: { type: "integer" },
  },
  "RateLimit-Policy": {
    description:
      'The quota and its window in seconds, e.g. `"default";q=600;w=60` (IETF RateLimit header fields, current draft).',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'Requests left and seconds until the window resets, e.g. `"default";r=599;t=42` (IETF RateLimit header fields, current draft).',
    schema: { type: "string" },
  },
};

const SUCCESS_HEADERS: Record<string, JsonObject> = {
  ...Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  ),
  [capitalizeHeader(IDEMPOTENT_REPLAYED_HEADER)]: { $ref: "#/components/headers/Idempotent-Replayed" },
};

function capitalizeHeader(name: string): string {
  return name
    .split("-")
    .map((part) => (part ? `${part[0]?.toUpperCase()}${part.slice(1)}` : part))
    .join("-");
}

function idempotencyKeyParameter(): JsonObject {
  return {
    name: IDEMPOTENCY_KEY_HEADER_NAME,
    in: "header",
    required: false,
    description: [
      `Makes the call safe to retry (any string up to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, e.g. a UUID).`,
      "The first call with a key runs; a retry with the same key and the same request (method, path,",
      "fields and file contents) answers the stored response again (same request id, same result file,",
      "same balance) without running or charging, with `Idempotent-Replayed: true`. A retry that arrives",
      `while the first call is still running waits for it (up to ${IDEMPOTENCY_WAIT_SECONDS} seconds, then 409`,
      "`idempotency-in-progress`). The same key with a different request answers 422",
      `\`idempotency-key-reused\`. Keys are kept ${IDEMPOTENCY_RETENTION_HOURS} hours, per API key. Only`,
      "successful answers are kept: a call that failed was refunded, and a retry with its key runs again.",
    ].join(" "),
    schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  };
}

function operationOf(feature: Feature): JsonObject {
  const files = feature.inputs.files;
  const fields = feature.inputs.body;
  const properties: Record<string, JsonObject> = {};
  const encoding: Record<string, JsonObject> = {};
  for (const file of files) {
    properties[file.name] = fileProperty(file);
    encoding[file.name] = { contentType: file.acceptedMimeTypes.join(", ") };
  }
  for (const field of fields) properties[field.name] = bodyProperty(field);
  const required = [
    ...files.filter((file) => file.required),
    ...fields.filter((field) => field.required),
  ].map((input) => input.name);

  const notes = [feature.description, "", `**Price:** ${priceText(feature)}.`];
  if (feature.asynchronous) {
    notes.push(
      "",
      "The call answers as soon as the model has accepted the work; the work continues in the background.",
    );
  }
  if (feature.requiresFirstDeposit) {
    notes.push("", "Locked (402 `first-deposit-required`) until the organization's first deposit.");
  }

  const responses: Record<string, JsonObject> = {
    "200": {
      description: resultDescription(feature),
      headers: SUCCESS_HEADERS,
      content: {
        "application/json": {
          schema: responseSchemaOf(feature),
          example: exampleResponse(feature),
        },
      },
    },
  };
  for (const status of errorStatusesOf(feature)) {
    responses[String(status)] = { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` };
  }

  return {
    operationId: operationId(feature),
    summary: feature.name,
    description: notes.join("\n"),
    tags: [tagOf(feature)],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      ...feature.headers.map((header) => ({
        name: header.name,
        in: "header",
        required: header.required,
        description: header.requiredWith
          ? `${header.description} Required when \`${header.requiredWith}\` is sent.`
          : header.description,
        schema: { type: "string" },
      })),
      { $ref: "#/components/parameters/IdempotencyKey" },
    ],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
          ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
        },
      },
    },
    responses,
    "x-codeSamples": [{ lang: "cURL", label: "cURL", source: curlExample(feature) }],
    "x-prism-feature": {
      id: feature.id,
      billing: {
        unit: feature.billing.unit,
        defaultPrice: microsToUsd(feature.billing.defaultPriceMicros),
        ...("identityPriceMicros" in feature.billing
          ? { identityPrice: microsToUsd(feature.billing.identityPriceMicros) }
          : {}),
        text: priceText(feature),
      },
      asynchronous: feature.asynchronous,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Console calls API keys may make too.
// ---------------------------------------------------------------------------------------------------

const TRAINED_IDENTITIES_PATH = calls.playground.getTrainedIdentities.path;
const TRAINED_IDENTITIES_ERRORS = [400, 401, 404, 429];

/** Listing the project's AI Clones: the one way an API user learns the identity ids to use. */
function trainedIdentitiesOperation(): JsonObject {
  const example: GetTrainedIdentitiesResponse = {
    requests: [
      {
        ...exampleResponse(pegasusTrainingFeature).request,
        response_data: { body: { identityId: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38", status: "ready" } },
        description: "Ada",
        identity_id: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38",
        identity_status: "ready",
      },
    ],
    hasMoreItems: false,
  };
  return {
    operationId: "getTrainedIdentities",
    summary: "List AI Clones",
    description: [
      "The project's AI Clones, newest first, a page at a time: each with its `identity_id` (the",
      "`identity_id` field of Pegasus generation and identity inpainting), its `identity_status`",
      "(`pending`, `training`, `ready` or `failed`) and its `id`, the training request id that goes in",
      `the \`${IDENTITY_REQUEST_HEADER}\` header with it. An API key lists its own project only;`,
      "another project answers 404. `offset` is the number of clones already received.",
    ].join("\n"),
    tags: [TAGS.clones.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: jsonSchemaOf(calls.playground.getTrainedIdentities.request, "input"),
          example: { projectId: EXAMPLE_IDS.project, offset: 0 },
        },
      },
    },
    responses: {
      "200": {
        description: "One page of the project's AI Clones.",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/TrainedIdentities" }, example },
        },
      },
      ...Object.fromEntries(
        TRAINED_IDENTITIES_ERRORS.map((status) => [
          String(status),
          { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` },
        ]),
      ),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: [
          `curl -X POST "$ORIGIN${TRAINED_IDENTITIES_PATH}"`,
          `  -H "Authorization: Bearer $PRISM_API_KEY"`,
          `  -H "Content-Type: application/json"`,
          `  -d "{\\"projectId\\": \\"$PROJECT_ID\\", \\"offset\\": 0}"`,
        ].join(" \\\n"),
      },
    ],
  };
}

function errorRefs(statuses: number[]): Record<string, JsonObject> {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` },
    ]),
  );
}

/** One call of the key's project: how an API user follows a training and learns a call's cost. */
function requestDetailOperation(): JsonObject {
  const request = exampleResponse(backgroundRemovalFeature).request;
  const example: RequestDetail = {
    ...request,
    endpoint: backgroundRemovalFeature.endpoint,
    status: "succeeded",
    queue_position: null,
    started_date: "2026-05-04T10:21:34.000Z",
    completed_date: "2026-05-04T10:21:35.000Z",
    reserved: request.cost,
    error: null,
    error_message: null,
    urls: {
      get: `/v1/requests/${request.id}`,
      cancel: `/v1/requests/${request.id}/cancel`,
    },
  };
  return {
    operationId: "getRequest",
    summary: "Get one call",
    description: [
      "One call of the API key's project, by the `request.id` its answer gave: its `status`",
      "(`generating`, `done` or `error`, with `error_message`), the result under `response_data`",
      "(`file` is the result's URL; a training's `body` carries its identity and training status), and",
      "its `cost` in dollars (0 once a failed call is refunded, a training that failed later included).",
      "Another project's call answers 404, as if it did not exist.",
    ].join("\n"),
    tags: [TAGS.usage.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      {
        name: "id",
        in: "path",
        required: true,
        description: "The call's `request.id`.",
        schema: { type: "string", format: "uuid" },
      },
    ],
    responses: {
      "200": {
        description: "The call.",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/RequestDetail" }, example },
        },
      },
      ...errorRefs([401, 404, 429]),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "$ORIGIN/v1/requests/$REQUEST_ID" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}

/** The key's project's usage over a range of UTC days, grouped, from the daily rollup. */
function usageOperation(): JsonObject {
  const example: UsageResponse = {
    start: "2026-05-01",
    end: "2026-05-31",
    group_by: "feature",
    buckets: [
      {
        key: backgroundRemovalFeature.endpoint,
        name: backgroundRemovalFeature.name,
        calls: 120,
        units: 120,
        cost: microsToUsd(BigInt(backgroundRemovalFeature.billing.defaultPriceMicros) * 120n),
      },
    ],
  };
  return {
    operationId: "getUsage",
    summary: "Get usage",
    description: [
      "The API key's project's calls, units and cost in dollars from `start` to `end` (UTC days, both",
      `included, at most ${USAGE_MAX_DAYS} days), one bucket per \`group_by\`: \`day\`, \`feature\``,
      "(the endpoint), `project`, or `api_key` (each key by name; calls made in the console are",
      `\`${PLAYGROUND_CALLER}\` with a null \`key\`). Only charged calls count: a refunded call is in no bucket.`,
    ].join("\n"),
    tags: [TAGS.usage.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      { name: "start", in: "query", required: true, schema: { type: "string", format: "date" } },
      { name: "end", in: "query", required: true, schema: { type: "string", format: "date" } },
      { name: "group_by", in: "query", required: true, schema: { type: "string", enum: [...USAGE_GROUPS] } },
    ],
    responses: {
      "200": {
        description: "The buckets, in order of their key.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Usage" }, example } },
      },
      ...errorRefs([400, 401, 429]),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "$ORIGIN${USAGE_PATH}?start=2026-05-01&end=2026-05-31&group_by=day" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}

function errorResponses(): Record<string, JsonObject> {
  const statuses = [...new Set(FEATURE_CALL_ERROR_CODES.map(statusOf))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const { name, meaning } = STATUS_MEANINGS[status]!;
      const codes = codesWithStatus(status);
      return [
        name,
        {
          description: `${meaning} Codes: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
          ...(status === 429
            ? {
                headers: {
                  "Retry-After": {
                    description: "Seconds to wait before retrying.",
                    schema: { type: "integer" },
                  },
                  ...SUCCESS_HEADERS,
                },
              }
            : {}),
          content: {
            "application/json": {
              schema: { $ref: ERROR_SCHEMA_REF },
              example: { error: codes[0], message: meaning },
            },
          },
        },
      ];
    }),
  );
}

function infoDescription(): string {
  const rows = FEATURES.map(
    (feature) => `| ${feature.name} | \`POST ${feature.endpoint}\` | ${priceText(feature)} |`,
  );
  return [
    `The ${PRODUCT_NAME} API runs the image and speech features of the ${PRODUCT_NAME} console from your own code.`,
    "",
    "### Authentication",
    "",
    "Create an API key in the console (**Project → API Keys**) and send it on every call:",
    `\`Authorization: Bearer ${API_KEY_PREFIX}...\`. A key belongs to one project; its calls are charged to that`,
    "project's organization and appear in the project's history and usage.",
    "",
    "### Calls",
    "",
    "Every feature call is a `POST` with a `multipart/form-data` body: files and fields under the names",
    "listed for the endpoint (repeat a field name to send several files). Files are checked by content,",
    "not by name. The answer is JSON: the organization's `balance` after the charge and the call's `cost`,",
    "in dollars, and the stored `request` with the URLs of the inputs and of the result; download them with the same key",
    '(see **Download a file**). Errors answer `{ "error": <code>, "message": <text>, "requestId": <id> }`',
    "with the status given for each endpoint; quote the `requestId` (also sent as the `x-request-id`",
    "header of every answer) when asking for support.",
    "",
    "### Pricing",
    "",
    "The price is reserved before the call runs and charged when it succeeds; a call that fails is",
    "refunded, and a call the balance cannot pay answers 402 without charging, before its upload is",
    "read. Audio is billed by its real length, measured from its samples. Default prices (a",
    "deployment may set its own; the console shows the price in force on each feature's screen):",
    "",
    "| Feature | Endpoint | Price |",
    "|---|---|---|",
    ...rows,
    "",
    "### Limits",
    "",
    "Each API key may make a set number of requests per minute, and each organization may have a set",
    "number of feature calls running at once (the deployment chooses both). Over either, the call",
    "answers 429 `rate-limited` with a `Retry-After` header in seconds, and nothing is charged.",
    "Answers to API keys carry the IETF RateLimit fields, the current draft's `RateLimit` and",
    "`RateLimit-Policy` and the earlier `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`;",
    "the count is shared by every server.",
    "",
    "### Keys with limits",
    "",
    "A key can carry limits, set when it is created in the console and editable later (see the",
    "`ApiKeyLimits` schema): the features it may call (others answer 403 `key-feature-not-allowed`), a",
    "spend cap per calendar month (UTC) and over its life (402 `key-spend-cap-reached`; the cap is checked",
    "in the same transaction that reserves the price, so concurrent calls cannot overshoot it), an expiry",
    "(401 `api-key-expired`), the IPv4/IPv6 addresses and CIDR ranges it may be used from (403",
    "`ip-not-allowed`), and its own requests per minute. All are checked from the headers, before the",
    "upload is read and before anything is reserved; a refused call is never charged.",
    "",
    "### Retries",
    "",
    "Send an `Idempotency-Key` header with a feature call to retry it safely after a network error: the",
    "retry answers the first call's response instead of running and charging again. A retry that arrives",
    `while the first call is still running waits for it (up to ${IDEMPOTENCY_WAIT_SECONDS} seconds). See the header's description.`,
    "",
    "### TypeScript SDK",
    "",
    `\`npm install ${SDK_PACKAGE_NAME}\` gives Node and browsers a typed client: one method per feature taking files`,
    "as `Blob`, `Buffer` or a path, errors as `PrismError` (`status`, `code`, `message`, `requestId`,",
    "`retryAfter`), an `Idempotency-Key` and retries on every call, `download()` for results, `submit`,",
    "`requests.wait` and `requests.cancel` for asynchronous calls, and `verifyWebhook` for signed events:",
    "",
    "```ts",
    `import { Prism } from "${SDK_PACKAGE_NAME}";`,
    "const prism = new Prism({ apiKey: process.env.PRISM_API_KEY!, baseUrl: process.env.PRISM_BASE_URL! });",
    'const result = await prism.imageBackgroundRemoval({ image: "photo.png" });',
    "const cutout = await result.download();",
    "```",
    "",
    "### AI Clones",
    "",
    "Training answers with the new clone's `identityId` at once; list the project's clones and their",
    `status with \`POST ${TRAINED_IDENTITIES_PATH}\` (a JSON call, with the same API key), or follow the`,
    "training's own request with `GET /v1/requests/{id}`. A training the model server reports failed",
    "is refunded: its request turns `error` and its `cost` 0.",
    "",
    "### Usage",
    "",
    "`GET /v1/usage` sums the key's project's calls, units and cost by day, feature, project or API key.",
  ].join("\n");
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const feature of FEATURES) {
    paths[feature.endpoint] = { post: operationOf(feature) };
  }
  paths[TRAINED_IDENTITIES_PATH] = { post: trainedIdentitiesOperation() };
  paths[FILE_ROUTE] = { get: fileDownloadOperation() };
  paths[REQUEST_DETAIL_PATH] = { get: requestDetailOperation() };
  paths[USAGE_PATH] = { get: usageOperation() };
  const usedTags = new Set([...FEATURES.map(tagOf), TAGS.files.name, TAGS.usage.name]);
  return {
    openapi: "3.1.0",
    info: {
      title: `${PRODUCT_NAME} API`,
      version: options.version ?? "1.0.0",
      // The model-server guide closes the introduction, under the anchor the console links to.
      description: `${infoDescription()}\n\n### Model servers\n\n${modelServerGuide()}`,
    },
    servers: [{ url: "/" }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: Object.values(TAGS)
      .filter((tag) => usedTags.has(tag.name))
      .map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${API_KEY_PREFIX}...`,
          description: `An API key created in the console: \`Authorization: Bearer ${API_KEY_PREFIX}...\`.`,
        },
      },
      schemas: {
        FeatureCallResponse: jsonSchemaOf(featureCallResponse),
        TranscriptionResult: jsonSchemaOf(transcriptionResultSchema),
        TrainingResult: jsonSchemaOf(trainingResultSchema),
        TrainedIdentities: jsonSchemaOf(calls.playground.getTrainedIdentities.response),
        ApiKeyLimits: jsonSchemaOf(apiKeyLimitsSchema),

        RequestDetail: jsonSchemaOf(requestDetailSchema),
        Usage: jsonSchemaOf(usageResponse),
        Error: {
          type: "object",
          required: ["error", "message"],
          properties: {
            error: {
              type: "string",
              enum: [...ERROR_CODES],
              description: "A stable, machine-readable code.",
            },
            message: { type: "string", description: "A human-readable explanation." },
            requestId: {
              type: "string",
              description: "The request's id, also in the `x-request-id` header; quote it to support.",
            },
          },
        },
      },
      responses: errorResponses(),
      parameters: { IdempotencyKey: idempotencyKeyParameter() },
      headers: {
        ...RATE_LIMIT_HEADERS,
        "Idempotent-Replayed": {
          description:
            "`true` when the answer is the stored response of an earlier call with the same Idempotency-Key.",
          schema: { type: "string", enum: ["true"] },
        },
      },
    },
    webhooks: webhooksSection(),
  };
}

const WEBHOOK_HEADERS = {
  "webhook-id": "The event's id: the same on every retry and resend, so a receiver handles each event once.",
  "webhook-timestamp": "Unix seconds when this try was signed; refuse ones too far from your clock.",
  "webhook-signature":
    "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (Standard Webhooks).",
} as const;

/**
 * One entry per event an endpoint can subscribe to: the Standard Webhooks envelope with the event's
 * `data` schema from the contract.
 */
function webhooksSection(): OpenApiDocument["webhooks"] {
  const tries = WEBHOOK_RETRY_SCHEDULE_MS.length + 1;
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: WEBHOOK_EVENT_LABELS[type],
          description: [
            `Sent to the organization's webhook endpoints subscribed to \`${type}\` (set up by the owner on the`,
            "console's Webhooks page), signed per the Standard Webhooks specification: verify it with the",
            "`standardwebhooks` library and the endpoint's secret. Answer 2xx within",
            `${WEBHOOK_TIMEOUT_MS / 1000} s; anything else is retried with exponential backoff, ${tries} tries over`,
            "about a day, and an endpoint failing for a day is disabled.",
          ].join(" "),
          tags: [TAGS.usage.name],
          parameters: Object.entries(WEBHOOK_HEADERS).map(([name, description]) => ({
            name,
            in: "header",
            required: true,
            description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { type: "string", const: type },
                    timestamp: {
                      type: "string",
                      format: "date-time",
                      description: "When the event happened.",
                    },
                    data: jsonSchemaOf(WEBHOOK_EVENT_DATA[type], "input"),
                  },
                },
              },
            },
          },
          responses: { "200": { description: "Received (any 2xx status counts)." } },
        },
      },
    ]),
  );
}

/** Whether a feature can run on this deployment, as the console's feature status says. */
export interface FeatureAvailability {
  available: boolean;
  /** No provider serves it here: it needs a model server. */
  needsModelServer: boolean;
  reason: string | null;
}

/**
 * The document with each feature marked as this deployment runs it right now (`x-prism-availability`),
 * so the reference can badge what needs a model server. The rest of the document does not change.
 */
export function withAvailability(
  document: OpenApiDocument,
  availability: ReadonlyMap<string, FeatureAvailability>,
): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = { ...document.paths };
  for (const feature of FEATURES) {
    const operation = paths[feature.endpoint]?.post;
    const status = availability.get(feature.id);
    if (!operation || !status) continue;
    const reason = status.needsModelServer ? FEATURE_NEEDS_MODEL_SERVER : status.reason;
    const badge = status.needsModelServer ? NEEDS_MODEL_SERVER_BADGE : UNAVAILABLE_BADGE;
    const guide = status.needsModelServer ? ` See [Model servers](${MODEL_SERVERS_DOCS_PATH}).` : "";
    paths[feature.endpoint] = {
      post: {
        ...operation,
        "x-prism-availability": { ...status, reason, ...(status.available ? {} : { badge }) },
        // What the reference page shows: Scalar draws `x-badges` beside the operation's title, and the
        // reason opens its description.
        ...(status.available
          ? {}
          : {
              "x-badges": [{ name: badge, position: "before", color: "var(--scalar-color-orange)" }],
              description: `**${badge}.** ${reason ?? ""}${guide}\n\n${String(operation.description ?? "")}`,
            }),
      },
    };
  }
  return { ...document, paths };
}

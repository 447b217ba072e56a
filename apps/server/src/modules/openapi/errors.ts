import { API_KEY_PREFIX, type ErrorCode, type Feature, statusOf } from "@prism/contract";
import { SUCCESS_HEADERS } from "./headers";
import { ERROR_SCHEMA_REF, type JsonObject } from "./types";

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

export function codesWithStatus(status: number): ErrorCode[] {
  return FEATURE_CALL_ERROR_CODES.filter((code) => statusOf(code) === status);
}

export function errorRefs(statuses: number[]): Record<string, JsonObject> {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` },
    ]),
  );
}

export function errorResponses(): Record<string, JsonObject> {
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

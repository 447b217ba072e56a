import { API_KEY_PREFIX, ERROR_CODES, type ErrorCode, type Feature, statusOf } from "@prism/contract";
import { SUCCESS_HEADERS } from "./headers";

/** The `requestId` of the example error answers (each answer's own request id, a Fastify id). */
export const EXAMPLE_REQUEST_ID = "9e8d7c6b-5a49-4382-b1c0-d9e8f7a6b5c4";

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
  "request-canceled",
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
      "The first call with this `Idempotency-Key` was still running when the retry stopped waiting for it (`idempotency-in-progress`: retry after the `Retry-After` header's seconds), the call was canceled with `POST /v1/requests/{id}/cancel` before it ended (`request-canceled`, refunded), or the AI Clone named in the call has not finished training (`identity-not-ready`).",
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

/** The codes no call of this feature can answer with: `identity-not-ready` needs an AI Clone field. */
function codesOf(feature: Feature): ErrorCode[] {
  const usesIdentity = feature.inputs.body.some((field) => field.name === "identity_id");
  return FEATURE_CALL_ERROR_CODES.filter((code) => usesIdentity || code !== "identity-not-ready");
}

/** Every status a feature call can answer with besides 200 and 202. */
export function errorStatusesOf(feature: Feature): number[] {
  return [...new Set(codesOf(feature).map(statusOf))].sort((a, b) => a - b);
}

export function codesWithStatus(status: number): ErrorCode[] {
  return FEATURE_CALL_ERROR_CODES.filter((code) => statusOf(code) === status);
}

/** Headers an error answer carries: the wait before a retry, and the key's rate-limit count. */
function errorHeadersOf(status: number): JsonObject | undefined {
  if (status === 429) {
    return {
      "Retry-After": {
        description: "Seconds to wait before retrying.",
        required: true,
        schema: { type: "integer", minimum: 0 },
      },
      ...SUCCESS_HEADERS,
    };
  }
  if (status === 409) {
    return {
      "Retry-After": {
        description: "With `idempotency-in-progress`: seconds to wait before retrying with the same key.",
        schema: { type: "integer", minimum: 0 },
      },
    };
  }
  if (status === 503) {
    return {
      "Retry-After": {
        description: "When the server is restarting: seconds to wait before retrying.",
        schema: { type: "integer", minimum: 0 },
      },
    };
  }
  return undefined;
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
          ...(errorHeadersOf(status) ? { headers: errorHeadersOf(status) } : {}),
          content: {
            "application/json": {
              schema: { $ref: ERROR_SCHEMA_REF },
              example: { error: codes[0], message: meaning, requestId: EXAMPLE_REQUEST_ID },
            },
          },
        },
      ];
    }),
  );
}

/** The error body every refusal answers with (`ErrorBody` of the contract). */
export function errorSchema(): JsonObject {
  return {
    type: "object",
    required: ["error", "message", "requestId"],
    properties: {
      error: { type: "string", enum: [...ERROR_CODES], description: "A stable, machine-readable code." },
      message: { type: "string", description: "A human-readable explanation." },
      field: {
        type: "string",
        description:
          "The request field the refusal is about (a dotted path such as `prompt`), when it is about one.",
      },
      requestId: {
        type: "string",
        description: "The request's id, also in the `x-request-id` header; quote it to support.",
      },
    },
  };
}

import {
  IDEMPOTENCY_KEY_HEADER_NAME,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETENTION_HOURS,
  IDEMPOTENCY_WAIT_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  PREFER_WAIT_MAX_SECONDS,
} from "@prism/contract";
import type { JsonObject } from "./types";

export const RATE_LIMIT_HEADERS: Record<string, JsonObject> = {
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

export const SUCCESS_HEADERS: Record<string, JsonObject> = {
  ...Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  ),
  [capitalizeHeader(IDEMPOTENT_REPLAYED_HEADER)]: { $ref: "#/components/headers/Idempotent-Replayed" },
};

export function capitalizeHeader(name: string): string {
  return name
    .split("-")
    .map((part) => (part ? `${part[0]?.toUpperCase()}${part.slice(1)}` : part))
    .join("-");
}

export function idempotencyKeyParameter(): JsonObject {
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

/** RFC 7240 `Prefer`: how long the caller is willing to wait for the call (issue 29). */
export function preferParameter(): JsonObject {
  return {
    name: "Prefer",
    in: "header",
    required: false,
    description: [
      "`respond-async`: answer `202 Accepted` at once with the queued call (its id, status, the amount",
      "reserved, and where to follow and cancel it; `Location` names `/v1/requests/{id}`) instead of",
      `holding the connection until it ends. \`wait=N\` (N up to ${PREFER_WAIT_MAX_SECONDS}): answer as a synchronous call`,
      "would when the call ends within N seconds, else the same 202. Without it a call is synchronous.",
      "Calls longer than a proxy's read timeout (often 60 s) should be made this way. The answer's",
      "`Preference-Applied` says which preference was honoured.",
    ].join(" "),
    schema: { type: "string", examples: ["respond-async", "wait=10"] },
  };
}

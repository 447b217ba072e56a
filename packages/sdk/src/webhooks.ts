import { WebhookVerificationError } from "./errors.js";

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/) with WebCrypto, so it runs in
 * browsers, Node, Deno and workers: the `webhook-signature` header holds one or more `v1,<base64>`
 * HMAC-SHA256 signatures of `${webhook-id}.${webhook-timestamp}.${body}` under the secret (base64
 * after `whsec_`), and the timestamp must be within the tolerance of now, so a captured delivery
 * cannot be replayed later.
 */

const SECRET_PREFIX = "whsec_";
/** As the standard's reference libraries: five minutes either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a timestamp may differ from now; default 300. */
  toleranceSeconds?: number;
  /** The time to check against (tests); default now. */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string" ? value : value?.[0];
}

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares in time that depends only on the length, so a forger learns nothing from timing. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** The HMAC-SHA256 signature (`v1,<base64>`) of a message, as a sender computes it. */
export async function signWebhook(
  secret: string,
  id: string,
  timestamp: Date,
  body: string,
): Promise<string> {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  return `v1,${await hmac(secret, `${id}.${seconds}.${body}`)}`;
}

async function hmac(secret: string, content: string): Promise<string> {
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64ToBytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  } catch {
    throw new WebhookVerificationError("The webhook secret is not base64 (copy it as shown, with whsec_).");
  }
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content));
  return bytesToBase64(new Uint8Array(signature));
}

/**
 * Checks a delivery and answers its parsed JSON body; throws WebhookVerificationError when a header
 * is missing, the timestamp is outside the tolerance or no signature matches. Pass the body exactly
 * as received (the raw text or bytes, before any JSON parsing).
 */
export async function verifyWebhook<T = unknown>(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<T> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.");
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) {
    throw new WebhookVerificationError("The webhook-timestamp header is not a number of seconds.");
  }
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (seconds < now - tolerance) throw new WebhookVerificationError("The webhook's timestamp is too old.");
  if (seconds > now + tolerance)
    throw new WebhookVerificationError("The webhook's timestamp is in the future.");
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  const expected = await hmac(secret, `${id}.${timestamp}.${body}`);
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    return version === "v1" && signature !== undefined && equalInConstantTime(signature, expected);
  });
  if (!matches) throw new WebhookVerificationError("No webhook signature matches.");
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new WebhookVerificationError("The webhook's body is not JSON.");
  }
}

import { setTimeout as sleep } from "node:timers/promises";
import { loadSharp } from "../images/codecs";
import { ProviderError, type ProviderOutput, type UpstreamUsage } from "./feature-provider";

/**
 * What every hosted adapter (Replicate, fal, Stability, ComfyUI) does the same way: fetch a result
 * only from the platform's own hosts within size and time limits, check that it is the image it
 * claims to be, retry the platform's "busy" answers with backoff inside the call's deadline, and
 * turn its refusals into reasons that are safe to show.
 */

/** A result larger than this is refused: no model in the maps answers anything near it. */
export const MAX_UPSTREAM_RESULT_BYTES = 64 * 1024 * 1024;
/** Longest one result download may take, whatever is left of the call's deadline. */
export const UPSTREAM_DOWNLOAD_TIMEOUT_MS = 60_000;
/** The most pixels a result may have (an 8192 x 8192 upscale is the largest any map asks for). */
export const MAX_UPSTREAM_RESULT_PIXELS = 8192 * 8192;
const MAX_REASON_LENGTH = 300;

export const RESULT_EXPIRED =
  "The model provider's result had expired or was gone before it could be fetched.";
export const RESULT_NOT_AN_IMAGE = "The model provider answered with something that is not an image.";
export const RESULT_TOO_LARGE = "The model provider's result is too large.";
export const RESULT_FOREIGN_HOST = "The model provider pointed at a result outside its own hosts.";
export const PROVIDER_BUSY = "The model provider is busy. Please try again in a moment.";
export const PROVIDER_TIMED_OUT = "The model provider did not answer in time.";

/**
 * The hosts a result may come from: the platform's documented delivery hosts (a leading dot allows
 * subdomains) and the host of the API base URL configured for it (a fake in tests, a proxy in some
 * deployments), never an address the answer itself chose.
 */
export function isAllowedResultUrl(url: URL, allowedHosts: readonly string[]): boolean {
  if (url.username || url.password) return false;
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return allowedHosts.some((allowed) => {
    const entry = allowed.toLowerCase();
    // A configured base URL's entry carries its port and may be plain HTTP (a fake, a local proxy);
    // a platform's own hosts are reached over HTTPS only.
    if (entry.includes(":")) return host === entry;
    if (url.protocol !== "https:") return false;
    if (entry.startsWith(".")) return hostname.endsWith(entry) || hostname === entry.slice(1);
    return hostname === entry;
  });
}

/** The host entry that lets results come from a configured base URL (with its port when it has one). */
export function hostEntryOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.port ? url.host : url.protocol === "https:" ? url.hostname : `${url.hostname}:80`;
}

/**
 * Downloads a result the platform named, only from `allowedHosts`, refusing redirects elsewhere,
 * bodies over `maxBytes` (counted as they arrive, not from the header) and downloads slower than
 * `timeoutMs`. An expired or vanished URL (403, 404, 410) says so.
 */
export async function fetchResult(
  address: string,
  options: {
    allowedHosts: readonly string[];
    signal: AbortSignal;
    headers?: Record<string, string>;
    maxBytes?: number;
    timeoutMs?: number;
  },
): Promise<{ data: Buffer; contentType: string }> {
  const maxBytes = options.maxBytes ?? MAX_UPSTREAM_RESULT_BYTES;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ProviderError("failed", RESULT_FOREIGN_HOST);
  }
  const signal = AbortSignal.any([
    options.signal,
    AbortSignal.timeout(options.timeoutMs ?? UPSTREAM_DOWNLOAD_TIMEOUT_MS),
  ]);
  for (let hops = 0; ; hops += 1) {
    if (!isAllowedResultUrl(url, options.allowedHosts)) {
      throw new ProviderError("failed", RESULT_FOREIGN_HOST);
    }
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: "manual",
        signal,
        ...(options.headers ? { headers: options.headers } : {}),
      });
    } catch (error) {
      throw timeoutOr(error, signal, "The model provider's result could not be downloaded.");
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location || hops >= 3) throw new ProviderError("failed", RESULT_FOREIGN_HOST);
      url = new URL(location, url);
      continue;
    }
    if (response.status === 403 || response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw new ProviderError("failed", RESULT_EXPIRED);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new ProviderError(
        "failed",
        `The model provider's result could not be downloaded (HTTP ${response.status}).`,
      );
    }
    if (Number(response.headers.get("content-length") ?? "0") > maxBytes) {
      await response.body.cancel();
      throw new ProviderError("failed", RESULT_TOO_LARGE);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body) {
        received += chunk.byteLength;
        if (received > maxBytes) throw new ProviderError("failed", RESULT_TOO_LARGE);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw timeoutOr(error, signal, "The model provider's result could not be downloaded.");
    }
    return {
      data: Buffer.concat(chunks),
      contentType: (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase(),
    };
  }
}

const IMAGE_FORMATS: Record<string, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

/**
 * The bytes as an image output, after reading them as one: a PNG, JPEG or WebP whose header sharp
 * can read, within the pixel bound. The gateway re-encodes it before storing (it is not encodedHere).
 */
export async function imageOutput(data: Buffer): Promise<ProviderOutput & { kind: "image" }> {
  if (data.length === 0) throw new ProviderError("failed", RESULT_NOT_AN_IMAGE);
  const sharp = await loadSharp();
  let format: string | undefined;
  let pixels = 0;
  try {
    const metadata = await sharp(data, { limitInputPixels: MAX_UPSTREAM_RESULT_PIXELS }).metadata();
    format = metadata.format;
    pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  } catch {
    throw new ProviderError("failed", RESULT_NOT_AN_IMAGE);
  }
  const mimeType = format ? IMAGE_FORMATS[format] : undefined;
  if (!mimeType || pixels === 0) throw new ProviderError("failed", RESULT_NOT_AN_IMAGE);
  if (pixels > MAX_UPSTREAM_RESULT_PIXELS) throw new ProviderError("failed", RESULT_TOO_LARGE);
  return { kind: "image", data, mimeType };
}

/** An upstream refusal's text, trimmed to what is safe to show: no URLs, keys or control characters. */
export function safeReason(text: unknown, fallback: string): string {
  if (typeof text !== "string") return fallback;
  const cleaned = text
    .replace(/https?:\/\/\S+/g, "")
    .replace(/\b(?:r8|sk|key|fal|Key)[_-][A-Za-z0-9_-]{8,}\b/g, "")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (cleaned === "") return fallback;
  return cleaned.length > MAX_REASON_LENGTH ? `${cleaned.slice(0, MAX_REASON_LENGTH - 1)}…` : cleaned;
}

/** A ProviderError for a failure: the call's deadline or cancel when the signal fired, else `message`. */
export function timeoutOr(error: unknown, signal: AbortSignal, message: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const mapped = signal.aborted
    ? new ProviderError("timeout", PROVIDER_TIMED_OUT)
    : new ProviderError("unavailable", message);
  mapped.cause = error;
  return mapped;
}

/** Waits `ms`, or less when the signal fires (then rejects with the signal's reason). */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(Math.max(0, ms), undefined, { signal });
}

export interface BackoffPolicy {
  /** First wait; each retry doubles it (with up to 25 % jitter), capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Most attempts in all; the call's deadline ends them sooner. */
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: 10_000, maxAttempts: 6 };

/** The wait before retry `attempt` (0-based): the platform's Retry-After when it gave one, else backoff. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, retryAfter?: string | null): number {
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, policy.maxDelayMs);
  if (retryAfter) {
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), policy.maxDelayMs);
  }
  const exponential = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  return exponential + Math.random() * exponential * 0.25;
}

/** 429 and the 5xx that mean "not now" (502, 503, 504) are worth another try; so is a 500 on a read. */
export function isRetryableStatus(status: number, method: string): boolean {
  if (status === 429 || status === 502 || status === 503 || status === 504) return true;
  return status >= 500 && method.toUpperCase() === "GET";
}

/**
 * A fetch for an official client that retries the platform's busy answers with backoff within the
 * call's deadline (the signal), honouring Retry-After. When the tries run out it throws a
 * ProviderError, and keeps throwing it at once for any further attempt the client's own retry loop
 * makes, so the client cannot multiply requests behind our back. One per call.
 */
export function retryingFetch(
  signal: AbortSignal,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  base: typeof fetch = fetch,
): typeof fetch {
  let exhausted: ProviderError | undefined;
  return async (input, init) => {
    if (exhausted) throw exhausted;
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    for (let attempt = 0; ; attempt += 1) {
      const response = await base(input, init);
      if (!isRetryableStatus(response.status, method)) return response;
      if (attempt + 1 >= policy.maxAttempts) {
        exhausted = busyError(response.status);
        await response.body?.cancel();
        throw exhausted;
      }
      const delay = backoffDelay(attempt, policy, response.headers.get("retry-after"));
      await response.body?.cancel();
      try {
        await pause(delay, signal);
      } catch (error) {
        exhausted = timeoutOr(error, signal, PROVIDER_BUSY);
        throw exhausted;
      }
    }
  };
}

function busyError(status: number): ProviderError {
  return status === 429
    ? new ProviderError("failed", PROVIDER_BUSY)
    : new ProviderError("failed", `The model provider kept failing (HTTP ${status}).`);
}

/** Micro-dollars from a dollar amount a platform or a model map states (rounded to the micro). */
export function usdToMicros(usd: number): bigint {
  return BigInt(Math.round(usd * 1_000_000));
}

/** The promise's value, or a rejection as soon as the signal aborts (the work itself goes on). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * What a run cost upstream: the map's price per result, else its price per second times the compute
 * time the platform reported; with the compute time itself when there is one.
 */
export function upstreamUsage(
  price: { perOutputUsd?: number | undefined; perSecondUsd?: number | undefined } | undefined,
  seconds: number | undefined,
): UpstreamUsage {
  const usage: UpstreamUsage = {};
  if (typeof seconds === "number" && Number.isFinite(seconds)) usage.computeMs = Math.round(seconds * 1000);
  if (price?.perOutputUsd !== undefined) usage.costMicros = usdToMicros(price.perOutputUsd);
  else if (price?.perSecondUsd !== undefined && usage.computeMs !== undefined) {
    usage.costMicros = usdToMicros((price.perSecondUsd * usage.computeMs) / 1000);
  }
  return usage;
}

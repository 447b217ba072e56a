import {
  type CallState,
  ERROR_STATUS,
  type ErrorCode,
  FEATURES,
  type FeatureId,
  type FeatureInputs,
  FeatureMethods,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  PREFER_HEADER,
  REQUEST_CANCEL_PATH,
  REQUEST_DETAIL_PATH,
} from "./contract.generated.js";
import { type ClientErrorCode, PrismError } from "./errors.js";
import { toBlob } from "./files.js";
import type {
  CallOptions,
  FeatureCallResponse,
  FeatureResult,
  FileInput,
  RequestDetail,
  ResultBodyOf,
  WaitOptions,
} from "./types.js";
import { type VerifyOptions, verifyWebhook, type WebhookHeaders } from "./webhooks.js";

export interface PrismOptions {
  /** An API key of the project the calls are made for and billed to. */
  apiKey: string;
  /** The deployment's address, e.g. `https://prism.example.com`. */
  baseUrl: string;
  /** Retries of one call after a 429, a 5xx or a network failure; default 2 (three attempts). */
  maxRetries?: number;
  /** The first retry's wait when the server names none; each further one doubles it. Default 500 ms. */
  retryDelayMs?: number;
  /**
   * The longest the client waits before a retry; a `Retry-After` beyond it ends the retries (the
   * error carries `retryAfter`). Default 60 seconds.
   */
  maxRetryDelayMs?: number;
  /** Each attempt's limit; a synchronous call lasts as long as its model works. Default 10 minutes. */
  timeoutMs?: number;
  /** The fetch to use (a proxy agent, a test's observer); default the global one. */
  fetch?: typeof fetch;
}

const FILE_PATH_PREFIX = "/v1/files/";
const ENDED_STATES: readonly CallState[] = ["succeeded", "failed", "canceled"];

interface SendOptions {
  body?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

async function errorOf(response: Response): Promise<PrismError> {
  const text = await response.text();
  let body: { error?: unknown; message?: unknown; field?: unknown; requestId?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the API's answer (a proxy's page): reported as such below.
  }
  const requestId =
    typeof body.requestId === "string" ? body.requestId : (response.headers.get("x-request-id") ?? undefined);
  return new PrismError({
    status: response.status,
    code: isErrorCode(body.error) ? body.error : "invalid-response",
    message:
      typeof body.message === "string"
        ? body.message
        : `The server answered ${response.status} without an error body.`,
    requestId,
    retryAfter: retryAfterOf(response),
    field: typeof body.field === "string" ? body.field : undefined,
  });
}

/** 429, 5xx and a call with the same Idempotency-Key still running are worth another attempt; other 4xx never. */
function isRetryable(error: PrismError): boolean {
  if (error.status === 0) return error.code === "network-error" || error.code === "timeout";
  return error.status === 429 || error.status >= 500 || error.code === "idempotency-in-progress";
}

/**
 * A random Idempotency-Key (a UUID v4) from `crypto.getRandomValues`, which browsers offer on plain
 * http pages too (`crypto.randomUUID` only in secure contexts).
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Prism API client: one method per feature (`backgroundRemoval`... see FeatureMethods), plus
 * asynchronous calls (`submit`, `requests.get/wait/cancel`), result downloads (`files.get`) and
 * webhook verification (`webhooks.verify`).
 */
export class Prism extends FeatureMethods {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #maxRetries: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: PrismOptions) {
    super();
    if (!options.apiKey) throw new TypeError("Prism: apiKey is required (create one in the console).");
    if (!options.baseUrl) throw new TypeError("Prism: baseUrl is required (the deployment's address).");
    this.#apiKey = options.apiKey;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryDelayMs = options.retryDelayMs ?? 500;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 600_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Following and canceling calls by their id. */
  readonly requests = {
    /** The call as it stands now. */
    get: (id: string, options: { signal?: AbortSignal } = {}): Promise<RequestDetail> =>
      this.#json<RequestDetail>("GET", REQUEST_DETAIL_PATH.replace("{id}", encodeURIComponent(id)), {
        signal: options.signal,
      }),
    /** Looks at the call until it has ended (succeeded, failed or canceled) and answers it then. */
    wait: (id: string, options: WaitOptions = {}): Promise<RequestDetail> => this.#wait(id, options),
    /** Cancels a queued or running call (refunded in full); 409 `request-ended` once it has ended. */
    cancel: (id: string, options: { signal?: AbortSignal } = {}): Promise<RequestDetail> =>
      this.#json<RequestDetail>("POST", REQUEST_CANCEL_PATH.replace("{id}", encodeURIComponent(id)), {
        signal: options.signal,
      }),
  };

  /** Stored files (results and inputs), fetched with the client's key. */
  readonly files = {
    /** A file by the URL an answer gave (`response_data.file`, absolute or relative). */
    get: async (url: string, options: { signal?: AbortSignal } = {}): Promise<Blob> => {
      const response = await this.#send("GET", this.#filePath(url), { signal: options.signal });
      return response.blob();
    },
  };

  /** Webhook signature verification (Standard Webhooks); needs no API key. */
  readonly webhooks = {
    /** Checks a delivery's signature and timestamp and answers its parsed body; throws WebhookVerificationError. */
    verify: <T = unknown>(
      payload: string | Uint8Array,
      headers: WebhookHeaders,
      secret: string,
      options?: VerifyOptions,
    ): Promise<T> => verifyWebhook<T>(payload, headers, secret, options),
  };

  /**
   * Submits a call without waiting for it (`Prefer: respond-async`): answers at once with its id and
   * state; follow it with `requests.wait(id)` or a webhook, stop it with `requests.cancel(id)`.
   */
  async submit<F extends FeatureId>(
    feature: F,
    input: FeatureInputs[F],
    options: CallOptions = {},
  ): Promise<RequestDetail> {
    const response = await this.#featureRequest(feature, input, options, {
      [PREFER_HEADER]: "respond-async",
    });
    if (response.status === 202) return (await response.json()) as RequestDetail;
    // A server that answered the result anyway: the call is followed by its id like any other.
    const answer = (await response.json()) as FeatureCallResponse;
    return this.requests.get(answer.request.id, options.signal ? { signal: options.signal } : {});
  }

  protected async call<F extends FeatureId>(
    feature: F,
    input: FeatureInputs[F],
    options: CallOptions = {},
  ): Promise<FeatureResult<F>> {
    const response = await this.#featureRequest(feature, input, options, {});
    const answer = (await response.json()) as FeatureCallResponse;
    const file = answer.request.response_data.file;
    const fileUrl = file ? new URL(file, `${this.#baseUrl}/`).toString() : null;
    return {
      ...answer,
      requestId: answer.request.id,
      fileUrl,
      body: answer.request.response_data.body as ResultBodyOf<F>,
      replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === "true",
      download: async () => {
        if (!fileUrl) {
          throw new PrismError({
            status: 0,
            code: "no-result-file",
            message: "This call made no result file.",
          });
        }
        return this.files.get(fileUrl);
      },
    };
  }

  async #featureRequest<F extends FeatureId>(
    featureId: F,
    input: FeatureInputs[F],
    options: CallOptions,
    extraHeaders: Record<string, string>,
  ): Promise<Response> {
    const feature = FEATURES.find((candidate) => candidate.id === featureId);
    if (!feature) throw new TypeError(`Prism: "${featureId}" is not a feature.`);
    const values = input as unknown as Record<string, unknown>;
    const form = new FormData();
    // Text fields before files: the server decides on them before it reads an upload.
    for (const name of feature.fields) {
      const value = values[name];
      if (value !== undefined && value !== null) form.append(name, String(value));
    }
    if (options.webhook !== undefined) form.append("webhook", options.webhook);
    if (options.webhookEvents !== undefined)
      form.append("webhook_events_filter", options.webhookEvents.join(","));
    for (const name of feature.files) {
      const value = values[name] as FileInput | readonly FileInput[] | undefined;
      if (value === undefined || value === null) continue;
      const list: readonly FileInput[] = Array.isArray(value) ? value : [value as FileInput];
      for (const file of list) {
        const { blob, filename } = await toBlob(file);
        form.append(name, blob, filename);
      }
    }
    const headers: Record<string, string> = { ...extraHeaders };
    for (const [property, header] of Object.entries(feature.headers as Record<string, string>)) {
      const value = values[property];
      if (typeof value === "string") headers[header] = value;
    }
    headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey ?? newIdempotencyKey();
    return this.#send("POST", feature.endpoint, { body: form, headers, signal: options.signal });
  }

  async #wait(id: string, options: WaitOptions): Promise<RequestDetail> {
    const deadline = Date.now() + (options.timeoutMs ?? 600_000);
    const interval = options.pollIntervalMs ?? 1_000;
    for (;;) {
      const detail = await this.requests.get(id, options.signal ? { signal: options.signal } : {});
      if (ENDED_STATES.includes(detail.status)) return detail;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new PrismError({
          status: 0,
          code: "timeout",
          message: `The call ${id} was still ${detail.status} when the wait ended.`,
          requestId: id,
        });
      }
      await sleep(Math.min(interval, left), options.signal);
    }
  }

  /** A file URL as a path of this deployment, so the key goes nowhere else. */
  #filePath(url: string): string {
    const path = new URL(url, `${this.#baseUrl}/`).pathname;
    const base = new URL(`${this.#baseUrl}/`).pathname.replace(/\/$/, "");
    const relative = path.startsWith(`${base}${FILE_PATH_PREFIX}`) ? path.slice(base.length) : path;
    if (!relative.startsWith(FILE_PATH_PREFIX)) {
      throw new TypeError(`Prism: ${url} is not a file of the API (${FILE_PATH_PREFIX}...).`);
    }
    return relative;
  }

  async #json<T>(method: string, path: string, options: SendOptions): Promise<T> {
    const response = await this.#send(method, path, options);
    return (await response.json()) as T;
  }

  /** One request with its retries; answers the first 2xx, throws the last PrismError otherwise. */
  async #send(method: string, path: string, options: SendOptions): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let failure: PrismError;
      try {
        const response = await this.#fetch(`${this.#baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.#apiKey}`, ...options.headers },
          ...(options.body ? { body: options.body } : {}),
          signal: options.signal
            ? AbortSignal.any([options.signal, AbortSignal.timeout(this.#timeoutMs)])
            : AbortSignal.timeout(this.#timeoutMs),
        });
        if (response.ok) return response;
        failure = await errorOf(response);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        const code: ClientErrorCode = timedOut ? "timeout" : "network-error";
        failure = new PrismError({
          status: 0,
          code,
          message: timedOut
            ? `No answer from ${this.#baseUrl} within ${this.#timeoutMs} ms.`
            : `Could not reach ${this.#baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      if (attempt >= this.#maxRetries || !isRetryable(failure)) throw failure;
      // Up to a fifth more or less, so clients refused together do not all come back together.
      const backoff = this.#retryDelayMs * 2 ** attempt * (0.8 + Math.random() * 0.4);
      const delay = failure.retryAfter !== undefined ? failure.retryAfter * 1000 : backoff;
      if (delay > this.#maxRetryDelayMs) throw failure;
      await sleep(delay, options.signal);
    }
  }
}

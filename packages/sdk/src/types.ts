import type { CallState, CallWebhookEvent, FeatureId } from "./contract.generated.js";

/**
 * The answers' shapes as the API sends them. Written here so the published package stands alone;
 * contract-parity.ts makes the typecheck fail when one drifts from packages/contract's schemas.
 */

/** A file to upload: bytes, a Blob or File, or (in Node) a path to read. */
export type FileInput =
  | Blob
  | Uint8Array
  | ArrayBuffer
  | string
  | {
      readonly data: Blob | Uint8Array | ArrayBuffer;
      readonly filename?: string;
      readonly contentType?: string;
    };

/** One stored call as the history and the answers show it (the spec's request record). */
export interface HistoryRequestRecord {
  id: string;
  /** ISO 8601, when the call was made. */
  request_date: string;
  request_data: {
    /** The uploaded inputs by field, as URLs. */
    files: Record<string, string[]>;
    /** The text fields as sent. */
    body: Record<string, unknown>;
  };
  response_data: {
    /** The result file's URL, when the call made one. */
    file?: string | undefined;
    /** A JSON result: a transcript, a training's AI Clone. */
    body?: unknown;
  };
  status: "queued" | "generating" | "done" | "error" | "canceled";
  /** Dollars this call cost (0 when it failed: failed calls are refunded). */
  cost: number;
}

/** The 200 of a feature call. */
export interface FeatureCallResponse {
  /** The organization's balance after the call, in dollars. */
  balance: number;
  /** What this call cost, in dollars. */
  cost: number;
  request: HistoryRequestRecord;
}

/** One call as `GET /v1/requests/{id}`, the 202 of `submit` and per-call webhooks show it. */
export interface RequestDetail extends Omit<HistoryRequestRecord, "status"> {
  endpoint: string;
  /** The call's state in the public API's words. */
  status: CallState;
  /** Calls that start before this one (0: next); null unless queued. */
  queue_position: number | null;
  started_date: string | null;
  completed_date: string | null;
  /** Dollars taken from the balance at submission; given back when the call fails or is canceled. */
  reserved: number;
  /** The error code the call ended with (`feature-failed`, `request-canceled`, ...), else null. */
  error: string | null;
  error_message: string | null;
  urls: { get: string; cancel: string };
}

/** One transcribed segment, in seconds from the start of the audio. */
export interface TranscriptionSegment {
  start: number;
  end: number;
  text: string;
}

/** Speech to Text's result body. */
export interface TranscriptionResult {
  language: string;
  segments: TranscriptionSegment[];
}

/** AI Clone Training's result body: the new clone's id and its training status. */
export interface TrainingResult {
  identityId: string;
  status: "pending" | "training" | "ready" | "failed";
}

/** The JSON result body a feature answers with, beside or instead of a file. */
export type ResultBodyOf<F extends FeatureId> = F extends "speech-to-text"
  ? TranscriptionResult
  : F extends "pegasus-training"
    ? TrainingResult
    : undefined;

/** A finished feature call. */
export interface FeatureResult<F extends FeatureId = FeatureId> extends FeatureCallResponse {
  /** The call's id (`request.id`): quote it to support, follow it with `requests.get`. */
  requestId: string;
  /** The result file's absolute URL (it needs the API key: use `download()`), or null. */
  fileUrl: string | null;
  /** The JSON result (a transcript, a training's AI Clone), when the feature answers one. */
  body: ResultBodyOf<F>;
  /** True when the answer was replayed for a repeated Idempotency-Key (nothing ran or was charged). */
  replayed: boolean;
  /** Fetches the result file with the client's key; throws when the call made none. */
  download(): Promise<Blob>;
}

/** Per-call options every feature method and `submit` take. */
export interface CallOptions {
  /**
   * The call's Idempotency-Key; one is made per call when left out. Every retry of the call sends the
   * same key, so a retried call runs and is charged at most once.
   */
  idempotencyKey?: string;
  /** A URL the server POSTs the call's events to (signed; verify with `webhooks.verify`). */
  webhook?: string;
  /** Which of the call's events the webhook gets (default: `completed`). */
  webhookEvents?: readonly CallWebhookEvent[];
  /** Aborts the call (no retry follows). */
  signal?: AbortSignal;
}

/** Options of `requests.wait`. */
export interface WaitOptions {
  /** Give up after this long (a PrismError with code `timeout`); default 10 minutes. */
  timeoutMs?: number;
  /** Time between two looks at the call; default 1 second. */
  pollIntervalMs?: number;
  signal?: AbortSignal;
}

import type { ErrorCode } from "./contract.generated.js";

/** Codes of failures the client itself sees, with no answer from the API (status 0). */
export type ClientErrorCode = "network-error" | "timeout" | "invalid-response" | "no-result-file";

/**
 * Every failure of a call: the API's error answer (`status`, `code`, `message`, `requestId`, the
 * refused `field`, `retryAfter` seconds), or one the client saw itself (status 0: the network failed,
 * a wait timed out, the answer was not the API's).
 */
export class PrismError extends Error {
  override readonly name = "PrismError";
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** The call's id as the server logged it (also the `x-request-id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait before trying again (429, 503, 409 in progress). */
  readonly retryAfter: number | undefined;
  /** The input field the refusal is about, when it is about one (`prompt`, `image`, ...). */
  readonly field: string | undefined;

  constructor(init: {
    status: number;
    code: ErrorCode | ClientErrorCode;
    message: string;
    requestId?: string | undefined;
    retryAfter?: number | undefined;
    field?: string | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.field = init.field;
  }
}

/** A webhook whose signature, timestamp or headers do not check out: do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

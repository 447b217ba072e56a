import { type ErrorCode, statusOf } from "@prism/contract";

/**
 * The one error type services throw. Services never build HTTP responses: the error handler turns an
 * AppError into `{ error, message }` with the status the contract binds to its code.
 */
export class AppError extends Error {
  readonly status: number;
  /** Response headers that belong to the refusal, e.g. `retry-after` on a 429. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request field the refusal is about, sent as `field` so forms need not read the message. */
  readonly field: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; field?: string | undefined } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = statusOf(code);
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

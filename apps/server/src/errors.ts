import { type ErrorCode, statusOf } from "@prism/contract";

/**
 * The one error type services throw. Services never build HTTP responses: the error handler turns an
 * AppError into `{ error, message }` with the status the contract binds to its code.
 */
export class AppError extends Error {
  readonly status: number;
  /** Response headers that belong to the refusal, e.g. `retry-after` on a 429. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = statusOf(code);
    this.headers = options.headers ?? {};
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

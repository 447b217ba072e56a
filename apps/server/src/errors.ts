import { type ErrorCode, statusOf } from "@prism/contract";

/**
 * The one error type services throw. Services never build HTTP responses: the error handler turns an
 * AppError into `{ error, message }` with the status the contract binds to its code.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
    this.status = statusOf(code);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

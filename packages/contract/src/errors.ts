/**
 * The closed list of error codes the API answers with, each bound to one HTTP status.
 * Every error body is `{ error: <code>, message: <human text>, requestId }`; codes named
 * by the spec are used verbatim. Adding a code here is the only way to introduce a new error.
 */
export const ERROR_STATUS = {
  // 400: bad input.
  "invalid-input": 400,
  "malformed-json": 400,
  "user-not-found": 400,
  "user-already-exists": 400,
  "user-already-active": 400,
  "verification-code-not-found": 400,
  "invalid-verification-code": 400,
  "invalid-reset-code": 400,
  "email-credentials-not-found": 400,
  "invitation-invalid": 400,
  "invalid-two-factor-code": 400,
  "passkey-verification-failed": 400,
  /** The password given to confirm a sensitive action is not the account's. */
  "invalid-password": 400,
  // 401: not signed in, or bad credentials.
  unauthenticated: 401,
  "invalid-credentials": 401,
  "invalid-api-key": 401,
  /** The API key's expiry date has passed. */
  "api-key-expired": 401,
  /** The password was right; the account's second factor is asked for next (issue 19). */
  "two-factor-required": 401,
  /** No second step is open in this browser (never started, expired or already completed). */
  "two-factor-sign-in-expired": 401,
  /** A passkey whose signature checks out but that no account holds (removed since). */
  "passkey-not-recognised": 401,
  // 402: the organization cannot pay for the call.
  "insufficient-balance": 402,
  "payment-method-required": 402,
  "card-declined": 402,
  "payment-failed": 402,
  // Training stays locked for a new organization until its first deposit.
  "first-deposit-required": 402,
  /** The call would take the API key over its monthly or lifetime spend cap. */
  "key-spend-cap-reached": 402,
  /** The organization's spend this month reached its budget and the budget's hard stop is on. */
  "budget-reached": 402,
  // 403: signed in but not allowed.
  forbidden: 403,
  "csrf-rejected": 403,
  "user-not-active": 403,
  /** The API key may only call the features it lists. */
  "key-feature-not-allowed": 403,
  /** The API key only works from the addresses it lists. */
  "ip-not-allowed": 403,
  /** The organization requires two-factor sign-in and the caller has neither TOTP nor a passkey. */
  "two-factor-enrolment-required": 403,
  /**
   * A sensitive action needs a sign-in proof from the last few minutes (decision 020); the console
   * asks for one and repeats the call.
   */
  "reauthentication-required": 403,
  // 404: not found, or not the caller's (never reveals another tenant's ids).
  "not-found": 404,
  "route-not-found": 404,
  // 409: the request is valid but the current state refuses it.
  "last-organization": 409,
  "owner-cannot-leave": 409,
  "owner-immutable": 409,
  "last-project": 409,
  "already-member": 409,
  "identity-not-ready": 409,
  /** A call with this Idempotency-Key is still running and did not finish while the retry waited. */
  "idempotency-in-progress": 409,
  /** The call was canceled (by its caller) before it finished; it was refunded. */
  "request-canceled": 409,
  /** Cancel asked of a call that has already ended (succeeded, failed or canceled). */
  "request-ended": 409,
  "two-factor-already-enabled": 409,
  "two-factor-not-enabled": 409,
  // 405 / 413 / 415 / 422 / 429.
  "method-not-allowed": 405,
  "payload-too-large": 413,
  "file-too-large": 413,
  "image-dimensions-exceeded": 413,
  "audio-too-long": 413,
  "unsupported-media-type": 415,
  "unsupported-file-type": 415,
  "unprocessable-input": 422,
  "unreadable-file": 422,
  /** The Idempotency-Key was already used for a different request. */
  "idempotency-key-reused": 422,
  /**
   * Over a limit: the sign-in and mail throttles, an API key's request rate, an organization's
   * concurrent feature calls. One code for all of them, so a client handles 429 once.
   */
  "rate-limited": 429,
  // 491: the bot check failed (the spec's status for reCAPTCHA failures).
  "recaptcha-failed": 491,
  // 5xx: our fault or a dependency's.
  "internal-error": 500,
  /** The model behind a feature failed; the call was refunded. */
  "feature-failed": 502,
  "feature-unavailable": 503,
  /** The card provider's answer to a charge was lost; the payment is credited once it confirms. */
  "payment-unconfirmed": 502,
  /** The model behind a feature did not answer in time; the call was refunded. */
  "feature-timeout": 504,
  "service-unavailable": 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  /**
   * The request field the refusal is about (a dotted path such as `city` or `cvc`), when it is about
   * one: forms mark that field without reading the message.
   */
  field?: string;
  /** The request's id (also in the `x-request-id` header), for the user to quote to support. */
  requestId?: string;
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    isErrorCode((value as { error?: unknown }).error) &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

import {
  GENERIC_ERROR,
  GITHUB_EMAIL_NOT_FOUND,
  GOOGLE_EMAIL_NOT_FOUND,
  INVALID_PASSWORD,
  INVALID_TWO_FACTOR_CODE,
  INVALID_VERIFICATION_CODE,
  LOGIN_USER_NOT_FOUND,
  PASSKEY_CEREMONY_FAILED,
  PASSKEY_NOT_RECOGNISED,
  RECAPTCHA_FAILED,
  RESET_USER_NOT_FOUND,
  SIGNUP_ERROR,
  TWO_FACTOR_SIGN_IN_EXPIRED,
  USER_ALREADY_ACTIVE,
  USER_ALREADY_EXISTS,
  VERIFICATION_CODE_NOT_FOUND,
} from "@prism/contract";
import { isApiError } from "../../../lib/api-client";
import { ChallengeDismissedError } from "./recaptcha";

/** The account requests of the login screen; each maps the server's refusals to the spec's text. */
export type AuthAction =
  | "login"
  | "signUp"
  | "confirm"
  | "forgotPassword"
  | "resetPassword"
  | "google"
  | "github"
  | "twoFactor"
  | "passkey";

const MESSAGES_BY_CODE: Record<AuthAction, Partial<Record<string, string>>> = {
  login: { "invalid-credentials": INVALID_PASSWORD, "user-not-found": LOGIN_USER_NOT_FOUND },
  signUp: { "user-already-exists": USER_ALREADY_EXISTS },
  confirm: {
    "user-already-active": USER_ALREADY_ACTIVE,
    "verification-code-not-found": VERIFICATION_CODE_NOT_FOUND,
    "invalid-verification-code": INVALID_VERIFICATION_CODE,
  },
  forgotPassword: { "user-not-found": RESET_USER_NOT_FOUND },
  resetPassword: {
    "user-not-found": RESET_USER_NOT_FOUND,
    "invalid-reset-code": INVALID_VERIFICATION_CODE,
    "verification-code-not-found": VERIFICATION_CODE_NOT_FOUND,
  },
  google: { "email-credentials-not-found": GOOGLE_EMAIL_NOT_FOUND },
  github: { "email-credentials-not-found": GITHUB_EMAIL_NOT_FOUND },
  twoFactor: {
    "invalid-two-factor-code": INVALID_TWO_FACTOR_CODE,
    "two-factor-sign-in-expired": TWO_FACTOR_SIGN_IN_EXPIRED,
  },
  passkey: {
    "passkey-not-recognised": PASSKEY_NOT_RECOGNISED,
    "passkey-verification-failed": PASSKEY_CEREMONY_FAILED,
  },
};

/** A third-party sign-in that fails for any other reason reads as a sign-up error. */
const FALLBACK: Record<AuthAction, string> = {
  login: GENERIC_ERROR,
  signUp: GENERIC_ERROR,
  confirm: GENERIC_ERROR,
  forgotPassword: GENERIC_ERROR,
  resetPassword: GENERIC_ERROR,
  google: SIGNUP_ERROR,
  github: SIGNUP_ERROR,
  twoFactor: GENERIC_ERROR,
  passkey: PASSKEY_CEREMONY_FAILED,
};

/**
 * The text shown under the form for a failed account request, or null when there is
 * nothing to say (the user closed the security challenge).
 */
export function authErrorMessage(action: AuthAction, error: unknown): string | null {
  if (error instanceof ChallengeDismissedError) return null;
  if (!isApiError(error)) return FALLBACK[action];
  // 491 reaches the form only once the visible challenge has failed too (or no challenge exists).
  if (error.status === 491) return RECAPTCHA_FAILED;
  const specific = MESSAGES_BY_CODE[action][error.code];
  if (specific) return specific;
  // Rate limiting names the wait, and invalid-input carries the contract's own validation text.
  if (error.code === "rate-limited" || error.code === "invalid-input") return error.message;
  return FALLBACK[action];
}

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./limits";

/**
 * The texts of signing up, signing in and recovering an account, part of messages.ts (which re-exports
 * them) kept in their own module so the sign-in page loads only these (issue 16).
 */

export interface TitledMessage {
  readonly title: string;
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------------
// Password rules.
// ---------------------------------------------------------------------------------------------------

export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
export const PASSWORD_TOO_WEAK =
  "Password must include at least one uppercase letter, one lowercase letter, one number, and one special character.";
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match.";
export const PASSWORD_STRONG = "Password is strong!";
/** Ours: the spec sets no maximum; the server bounds hashing work. */
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`;

// ---------------------------------------------------------------------------------------------------
// Sign-up, sign-in and recovery validation.
// ---------------------------------------------------------------------------------------------------

export const FIRST_NAME_REQUIRED = "First Name is required";
export const LAST_NAME_REQUIRED = "Last Name is required";
export const EMAIL_ADDRESS_REQUIRED = "Email Address is required";
export const INVALID_EMAIL_ADDRESS = "Invalid email address";
export const PASSWORD_REQUIRED = "Password is required";
export const TERMS_REQUIRED = "You must accept the terms and conditions";
export const VERIFICATION_CODE_REQUIRED = "Verification code is required";
/** The forgot-password form's wording differs from sign-up's ("address" in lower case). */
export const FORGOT_PASSWORD_EMAIL_REQUIRED = "Email address is required";

// ---------------------------------------------------------------------------------------------------
// Session and sign-in feedback (ours: the spec has no wording for these).
// ---------------------------------------------------------------------------------------------------

/** A users/me refresh failed without ending the session (timeout, network): the user stays signed in. */
export const SESSION_REFRESH_FAILED: TitledMessage = {
  title: "Connection problem",
  message: "We could not refresh your account just now. You are still signed in; we will try again shortly.",
};
/** The login page of an invitation link names the organization. */
export function invitedToJoinText(organizationName: string): string {
  return `You have been invited to join ${organizationName}`;
}
export const RESEND_CODE_LABEL = "Resend code";
export const VERIFICATION_CODE_RESENT = "We have sent you a new verification code.";
/** The Resend code button while it waits, e.g. "Resend code in 25s". */
export function resendCodeCooldownLabel(seconds: number): string {
  return `${RESEND_CODE_LABEL} in ${seconds}s`;
}

// ---------------------------------------------------------------------------------------------------
// Sign-in and account errors.
// ---------------------------------------------------------------------------------------------------

/** Ours: a console call made without a valid session. */
export const SIGN_IN_REQUIRED = "Please sign in to continue.";
export const GENERIC_ERROR = "An error occurred. Please try again later or contact support.";
export const RECAPTCHA_FAILED = "Recaptcha check failed. Please try again.";
export const INVALID_PASSWORD = "Invalid password";
export const LOGIN_USER_NOT_FOUND = "We cannot find the provided email on our database.";
export const USER_ALREADY_EXISTS = "The email already exists. Please select a different one";
/** Ours: the spec says only that this message sends the user back to sign-in. */
export const USER_ALREADY_ACTIVE = "Your account is already active. Please go back and sign in.";
export const VERIFICATION_CODE_NOT_FOUND =
  "No active verification code found. Please go back and generate a new one.";
export const INVALID_VERIFICATION_CODE = "Invalid verification code";
export const RESET_USER_NOT_FOUND = "Email address not found.";
export const GOOGLE_EMAIL_NOT_FOUND =
  "Unable to retrieve email from Google. Please try again or contact support.";
export const GITHUB_EMAIL_NOT_FOUND =
  "Unable to retrieve email from GitHub. Please try again or contact support.";
export const SIGNUP_ERROR = "Signup error. Please try again later or contact support.";

// ---------------------------------------------------------------------------------------------------
// Bot check.
// ---------------------------------------------------------------------------------------------------

export const SECURITY_CHALLENGE_TITLE = "Security Challenge";
export const SECURITY_CHALLENGE_MESSAGE = "Please complete the security challenge below";

import { PRODUCT_NAME } from "./limits";

/**
 * Account security beyond the spec: two-factor sign-in with an authenticator
 * app (TOTP) and recovery codes, the list of signed-in devices, passkeys. Its limits and the texts the
 * server and the Profile page share live here, in one place.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;

/** RFC 6238 defaults, which every authenticator app understands: 6 digits every 30 seconds. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted too (clock drift of a phone). */
export const TOTP_TOLERANCE_STEPS = 1;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = PRODUCT_NAME;
/** Recovery codes shown once at enrolment, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (shown as two groups of 5 joined by a dash). */
export const RECOVERY_CODE_LENGTH = 10;
/** How long the step between a right password and the second factor stays open. */
export const TWO_FACTOR_PENDING_TTL_MS = 5 * MINUTE_MS;
/** Wrong second-factor codes allowed per account in one window, as for the mailed codes. */
export const TWO_FACTOR_MAX_ATTEMPTS = 5;
/** The wait once those tries are used up. */
export const TWO_FACTOR_LOCKOUT_MS = 5 * MINUTE_MS;
/** A session's "last seen" is written at most this often, so a busy session costs no write per call. */
export const SESSION_LAST_SEEN_RESOLUTION_MS = 5 * MINUTE_MS;
/** Our choice: how long a passkey's name may be. */
export const PASSKEY_NAME_MAX_LENGTH = 64;
/** How long a passkey ceremony's challenge stays valid. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE_MS;

export const TWO_FACTOR_SECTION_TITLE = "Two-factor authentication";
export const SIGNED_IN_DEVICES_SECTION_TITLE = "Signed-in devices";
export const PASSKEYS_SECTION_TITLE = "Passkeys";

export const TWO_FACTOR_CODE_LABEL = "Authentication code";
export const TWO_FACTOR_CODE_REQUIRED = "Authentication code is required";
export const TWO_FACTOR_REQUIRED = `Enter the ${TOTP_DIGITS}-digit code from your authenticator app, or one of your recovery codes.`;
/** An organization's calls refused to a member without a second factor when the owner requires one. */
export const TWO_FACTOR_ENROLMENT_REQUIRED =
  "This organization requires two-factor sign-in. Set up an authenticator app or a passkey in your profile to continue.";
export const REQUIRE_TWO_FACTOR_OWNER_FIRST =
  "Set up two-factor authentication for your own account before requiring it of members.";
export const SECURITY_PAGE_TITLE = "Security";
export const REQUIRE_TWO_FACTOR_LABEL = "Require two-factor sign-in";
export const REQUIRE_TWO_FACTOR_DESCRIPTION =
  "Members without an authenticator app or a passkey are sent to set one up before they can use this organization.";
export const INVALID_TWO_FACTOR_CODE = "Invalid authentication code";
export const TWO_FACTOR_SIGN_IN_EXPIRED = "Your sign-in has expired. Please sign in again.";
export const TWO_FACTOR_ALREADY_ENABLED = "Two-factor authentication is already enabled.";
export const TWO_FACTOR_NOT_ENABLED = "Two-factor authentication is not enabled.";
export const TWO_FACTOR_ENABLED = "Two-factor authentication enabled!";
export const TWO_FACTOR_DISABLED = "Two-factor authentication disabled!";
export const SESSION_SIGNED_OUT = "Device signed out!";
export const SESSION_NOT_FOUND = "This device is no longer signed in.";
export const PASSKEY_ADDED = "Passkey added!";
export const PASSKEY_REMOVED = "Passkey removed!";
export const PASSKEY_NOT_RECOGNISED = "This passkey is not recognised. Please try another way to sign in.";
export const PASSKEY_CEREMONY_FAILED = "The passkey could not be verified. Please try again.";
export const PASSKEY_NAME_REQUIRED = "Please enter a name";
export const PASSKEY_NOT_FOUND = "This passkey no longer exists.";
export const SIGN_IN_WITH_PASSKEY = "Sign in with a passkey";

/** The dialogs of the Profile page's security sections, in the console's usual wording. */
export const ACCOUNT_SECURITY_ERROR_DIALOGS = {
  enableTwoFactor: {
    title: "Error Enabling Two-Factor Authentication",
    message:
      "An error occurred while enabling two-factor authentication. Please try again later or contact our support.",
  },
  disableTwoFactor: {
    title: "Error Disabling Two-Factor Authentication",
    message:
      "An error occurred while disabling two-factor authentication. Please try again later or contact our support.",
  },
  signOutSession: {
    title: "Error Signing Out",
    message: "An error occurred while signing out the device. Please try again later or contact our support.",
  },
  retrieveSessions: {
    title: "Error Retrieving Devices",
    message:
      "An error occurred while retrieving your signed-in devices. Please try again later or contact our support.",
  },
  addPasskey: {
    title: "Error Adding Passkey",
    message: "An error occurred while adding the passkey. Please try again later or contact our support.",
  },
  removePasskey: {
    title: "Error Removing Passkey",
    message: "An error occurred while removing the passkey. Please try again later or contact our support.",
  },
} as const;

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

/**
 * Re-authentication ("sudo mode", decision 020): how long a sign-in proof (password, authenticator code
 * or passkey, given at sign-in or in the confirmation dialog) lets the session make sensitive calls.
 */
export const REAUTHENTICATION_WINDOW_MS = 10 * MINUTE_MS;
export const REAUTHENTICATION_WINDOW_MINUTES = REAUTHENTICATION_WINDOW_MS / MINUTE_MS;
/** Wrong passwords given to confirm an action, per account, before a wait (as for second factors). */
export const REAUTHENTICATION_MAX_ATTEMPTS = 5;
export const REAUTHENTICATION_LOCKOUT_MS = 5 * MINUTE_MS;
export const REAUTHENTICATION_REQUIRED =
  "Please confirm it is you: this action needs your password, an authentication code or a passkey.";
export const REAUTHENTICATION_DIALOG = {
  title: "Confirm it's you",
  description: `This is a sensitive action. Confirm your identity to continue; you will not be asked again for ${REAUTHENTICATION_WINDOW_MINUTES} minutes.`,
  passwordLabel: "Current password",
  codeLabel: TWO_FACTOR_CODE_LABEL,
  confirm: "Confirm",
  usePasskey: "Use a passkey",
  cancel: "Cancel",
  /** An account with no password, authenticator app or passkey (Google or GitHub sign-in only). */
  noMethod:
    "Your account has no password, authenticator app or passkey. Sign out and sign in again to confirm it is you, or add a password with Recover Password.",
  passwordRequired: "Password is required",
} as const;

/** Turning two-factor on signs out the account's other sessions: one opened by a thief does not stay. */
export const TWO_FACTOR_ENDS_OTHER_SESSIONS =
  "Turning it on signs you out on every other device; sign in there again with a code.";
export const REGENERATE_RECOVERY_CODES = "Generate new recovery codes";
export const REGENERATE_RECOVERY_CODES_CONFIRM =
  "Your current recovery codes will stop working. Generate new ones?";
export const RECOVERY_CODES_REGENERATED = "New recovery codes generated!";

/**
 * The "it wasn't me" link of the passkey-added mail: one click removes that passkey and signs the
 * account out everywhere, so a passkey registered by someone holding a stolen session does not outlive
 * the owner's recovery (decision 020).
 */
export const REMOVE_PASSKEY_LINK_PATH = "/remove-passkey";
export const REMOVE_PASSKEY_PAGE = {
  title: "Remove a passkey",
  description:
    "If you did not add this passkey, remove it: it stops working at once and every device signed in to your account is signed out. Then change your password.",
  button: "Remove passkey and sign out",
  done: "The passkey was removed and every device was signed out. Sign in and change your password.",
  invalid: "This link is no longer valid: the passkey was already removed.",
  signIn: "Go to Sign In",
} as const;
/** The link's token: 256 random bits in base64url. */
export const PASSKEY_REMOVAL_TOKEN_LENGTH = 43;

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
  regenerateRecoveryCodes: {
    title: "Error Generating Recovery Codes",
    message:
      "An error occurred while generating new recovery codes. Please try again later or contact our support.",
  },
  removePasskey: {
    title: "Error Removing Passkey",
    message: "An error occurred while removing the passkey. Please try again later or contact our support.",
  },
} as const;

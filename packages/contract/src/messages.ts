import {
  GENERIC_ERROR,
  INVALID_PASSWORD,
  INVALID_VERIFICATION_CODE,
  LOGIN_USER_NOT_FOUND,
  RECAPTCHA_FAILED,
  type TitledMessage,
  USER_ALREADY_ACTIVE,
  USER_ALREADY_EXISTS,
  VERIFICATION_CODE_NOT_FOUND,
} from "./account-messages";
import {
  INVALID_TWO_FACTOR_CODE,
  PASSKEY_CEREMONY_FAILED,
  PASSKEY_NOT_RECOGNISED,
  REAUTHENTICATION_REQUIRED,
  TWO_FACTOR_ALREADY_ENABLED,
  TWO_FACTOR_ENROLMENT_REQUIRED,
  TWO_FACTOR_NOT_ENABLED,
  TWO_FACTOR_REQUIRED,
  TWO_FACTOR_SIGN_IN_EXPIRED,
} from "./account-security";
import type { ErrorCode } from "./errors";
import {
  ACCEPTED_AUDIO_EXTENSIONS,
  ACCEPTED_IMAGE_EXTENSIONS,
  BALANCE_DECIMALS,
  BYTES_PER_MB,
  COST_DECIMALS,
  INVOICE_LINK_TTL_MINUTES,
  MAX_AUDIO_BYTES,
  MAX_AUDIO_SECONDS,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_RECHARGE_USD,
  MAX_UPSCALE_PIXELS,
  MICRO_DIGITS,
  MIN_RECHARGE_USD,
  PIXELS_PER_MEGAPIXEL,
  RESTART_RETRY_AFTER_SECONDS,
  SECONDS_PER_MINUTE,
  usdToMicros,
} from "./limits";

/**
 * User-visible texts that the server and more than one web screen share, in the spec's exact wording
 * (typos included: the spec is the product). Where the spec elides part of a message ("An error
 * occurred ... Please try again later"), the elided middle is ours and says which action failed.
 */

export * from "./account-messages";

// ---------------------------------------------------------------------------------------------------
// Generic form texts.
// ---------------------------------------------------------------------------------------------------

export const REQUIRED_FIELDS_MISSING = "Please fill all the required fields";
export const NAME_REQUIRED = "Please enter a name.";
/** A name or another one-line field holding a line break, a tab or a text-direction control. */
export const CONTROL_CHARACTERS_REFUSED =
  "Line breaks, tabs and other control characters are not allowed here.";
/**
 * The Remove (or Leave) dialog's word on the member's keys, which go with them; null when they made none.
 */
export function memberKeysRevokedText(count: number, isYou: boolean): string | null {
  if (count === 0) return null;
  const keys = count === 1 ? "1 API key" : `${count} API keys`;
  return isYou
    ? `The ${keys} you created in it will be revoked: calls made with ${count === 1 ? "it" : "them"} will stop working.`
    : `The ${keys} they created will be revoked with them: calls made with ${count === 1 ? "it" : "them"} will stop working.`;
}
export const LOGOUT_CONFIRM = "Are you sure you want to logout?";
export const LOGOUT_ALL_SESSIONS_CONFIRM = "Are you sure you want to logout from all sessions?";
export const CONFIRM_YES = "Yes";
export const CONFIRM_NO = "No";
export const CONFIRM_DELETE_YES = "Yes, proceed";
export const JOIN_ORGANIZATION_TITLE = "Join Organization";
/** The members dialog when it invites (the spec's title) ... */
export const INVITE_MEMBERS_TITLE = "Invite Members or Permissions";
/** ... and, ours, when it edits one member's rights. */
export const EDIT_PERMISSIONS_TITLE = "Edit Permissions";
export const API_CALL_DETAILS_TITLE = "API Call Details";
export const NOT_FOUND_TITLE = "Not Found";

// ---------------------------------------------------------------------------------------------------
// Domain refusals.
// ---------------------------------------------------------------------------------------------------

export const ARCHIVE_LAST_ORGANIZATION =
  "You must belong to at least one active organization. Please create a new organization before archiving this one.";
/** The spec shows this text when an owner tries to leave; its wording is about the last organization. */
export const LEAVE_ORGANIZATION_REFUSED =
  "You must belong at least to one organization. Please create a new organization before leaving.";
/** Why a member's own row offers no permission change (the server refuses it with `forbidden`). */
export const EDIT_OWN_PERMISSIONS_REFUSED = "You cannot change your own permissions.";
export const OWNER_PERMISSIONS_FIXED = "The owner's permissions cannot be changed.";
/** Under the owner's own greyed-out Edit permissions and Leave: why, and the way out. */
export const OWN_OWNER_ROW_NOTE =
  "You own this organization, with every right. To leave it, first transfer the ownership to another member.";
/** Under the owner's greyed-out buttons as other members see them. */
export const OWNER_ROW_NOTE = "The owner's permissions cannot be changed, and the owner cannot be removed.";
/** Why a box of the permission dialog is off limits: a member grants only rights they hold. */
export const GRANT_NOT_HELD = "You can only grant rights you hold yourself.";
/** Under the permission boxes when some are off limits (touch screens show no tooltips). */
export const GRANT_NOT_HELD_NOTE = `Greyed-out boxes are rights you do not hold. ${GRANT_NOT_HELD}`;
export const ARCHIVE_LAST_PROJECT =
  "At least one project is required within the organization. Please create a new project before archiving this one.";
export const PAYMENT_METHOD_REQUIRED = "Please add a Payment Method first";
/** Ours (Stripe's wording): the card form and the sandbox provider refuse a number failing its checks. */
export const CARD_NUMBER_INVALID = "Your card number is invalid.";
export const CARD_SECURITY_CODE_INVALID = "Your card's security code is invalid.";
/** The card form and the sandbox provider alike, under the expiry field (Stripe's card form wording). */
export const CARD_EXPIRED = "Your card's expiration date is in the past.";
/** Ours: a member may give others only the rights they hold themself (the owner holds all). */
export const GRANT_EXCEEDS_OWN_PERMISSIONS = "You cannot grant permissions you do not have yourself.";
/** Ours: a member without the project's right (nor all projects) asks for one of its calls. */
export const PROJECT_ACCESS_REFUSED = "You do not have access to this project.";
/** Ours: an id of another tenant, a deleted row or no row at all: the same answer, so ids reveal nothing. */
export const API_KEY_NOT_FOUND = "API key not found.";
export const REQUEST_NOT_FOUND = "Request not found.";
export const MEMBER_NOT_FOUND = "That user is not a member of this organization.";
/** Ours: the playground, its history and its files need the organization's playground permission. */
export const PLAYGROUND_ACCESS_REFUSED = "You do not have access to the playground of this organization.";
/** Ours: the card provider's answer to a charge was lost, so whether the card was charged is unknown. */
export const PAYMENT_UNCONFIRMED =
  "We could not confirm this payment with the card provider. If your card was charged, your balance will be updated automatically within a few minutes; please check it before trying again.";
/** Ours: invoice links open once and only for a few minutes. */
export const INVOICE_LINK_EXPIRED =
  "This invoice link has expired or was already used. Please open the invoice again from the console.";
/** The page a browser tab shows for such a link: its title, and how to get a new link. */
export const INVOICE_LINK_EXPIRED_TITLE = "This invoice link has expired";
export const INVOICE_LINK_RENEW = `To get a new link, open Invoices in the console and choose View beside the invoice. Each link opens the invoice once, within ${INVOICE_LINK_TTL_MINUTES} minutes.`;
export const OPEN_INVOICES_LABEL = "Open your invoices";
/** Shown beside every recharge and auto-recharge amount, whose smaller values are raised to it. */
export const RECHARGE_MINIMUM_HINT = `Minimum $${MIN_RECHARGE_USD}`;
/** The recharge amount's hint: the minimum and our upper bound. */
export const RECHARGE_LIMITS_HINT = `Minimum $${MIN_RECHARGE_USD}, maximum $${MAX_RECHARGE_USD.toLocaleString("en-US")}.`;
/** Beside an amount that leaving the field raised to the minimum (the spec's clamp, said aloud). */
export const RECHARGE_RAISED_TO_MINIMUM = `Raised to the $${MIN_RECHARGE_USD} minimum.`;
/** Beside an amount above our upper bound, which is refused rather than lowered. */
export const RECHARGE_ABOVE_MAXIMUM = `The maximum is $${MAX_RECHARGE_USD.toLocaleString("en-US")}. Please enter a smaller amount.`;

// ---------------------------------------------------------------------------------------------------
// Success notices.
// ---------------------------------------------------------------------------------------------------

export const RECHARGE_SUCCESSFUL = "Recharge Successful!";
export const CHANGES_SAVED = "Changes have been saved!";
/** The spec's typo ("delete!") is the product's wording; keep it. */
export const API_KEY_DELETED = "The API Key has been delete!";
export const PROFILE_UPDATED = "Profile Updated!";
export const PASSWORD_CHANGED = "Password Changed!";
export const TRAINING_STARTED = "Training has started!";
export const CODE_COPIED = "Code copied to clipboard!";
export const INVITATION_CONFIRMED = "Invitation Confirmed";
/** Ours: an invitation that was revoked, used, expired or sent to another email. */
export const INVITATION_INVALID = "This invitation is no longer valid.";

// ---------------------------------------------------------------------------------------------------
// Empty states and fixed labels.
// ---------------------------------------------------------------------------------------------------

export const INVOICES_EMPTY =
  "You don't have any invoices yet. Your billing history will appear here once invoices are generated.";
export const API_KEYS_EMPTY =
  "No API keys have been created yet. Generate a new key to start making API requests.";
export const HISTORY_EMPTY =
  "You haven't used this section yet. Start now using the options in the left panel!";
/** The same where the panels are stacked (a phone): the options are above the history, not left of it. */
export const HISTORY_EMPTY_STACKED = "You haven't used this section yet. Start now using the options above!";
export const INVOICE_STATUS_PAID = "Paid";
export const GENERATION_ERROR_LABEL = "Generation Error";
export const TRANSCRIPTION_ERROR = "There was an error processing the transcription.";
export const ALL_FEATURES = "All Features";
export const TEXT_REMOVAL_HINT = "Select your image and click on Remove Texts to eliminate all text from it.";
export const PROMPT_PLACEHOLDER = "Type your prompt here..";

/** "a, b and c": a list as the product's sentences write it (no comma before the last word). */
export function listText(items: readonly (string | number)[], conjunction: "and" | "or"): string {
  const last = items.at(-1);
  if (items.length < 2 || last === undefined) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${last}`;
}

/** "Are you sure you want to recharge $100?" with the amount as the user typed it. */
export function rechargeConfirmText(amount: number | string): string {
  return `Are you sure you want to recharge $${amount}?`;
}

/**
 * "$1,234.568" / "-$3.00": micro-dollars with a number of decimals, rounded half away from zero on the
 * exact integer. Every amount a person sees goes through here: `toFixed` on a float would show $0.0375
 * as $0.037 because its binary value is just below it.
 */
export function formatMicros(micros: bigint, decimals: number): string {
  const negative = micros < 0n;
  const magnitude = negative ? -micros : micros;
  const perShownDigit = 10n ** BigInt(MICRO_DIGITS - decimals);
  const shown = (magnitude + perShownDigit / 2n) / perShownDigit;
  const digits = shown.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+$)/g, ",");
  const fraction = decimals > 0 ? `.${digits.slice(-decimals)}` : "";
  return `${negative && shown !== 0n ? "-" : ""}$${whole}${fraction}`;
}

/** A cost with 3 decimals: per-call prices and usage costs. */
export function formatCost(priceUsd: number): string {
  return formatMicros(usdToMicros(priceUsd), COST_DECIMALS);
}

/** Dollars with 2 decimals: balances, invoices, recharge amounts. */
export function formatBalance(usd: number): string {
  return formatMicros(usdToMicros(usd), BALANCE_DECIMALS);
}

/** The price line of the edit screens, e.g. "$0.010 will be charged". */
export function chargeNoticeText(priceUsd: number): string {
  return `${formatCost(priceUsd)} will be charged`;
}

// ---------------------------------------------------------------------------------------------------
// Upload limits.
// ---------------------------------------------------------------------------------------------------

/** The API reference page's way back to the console. */
export const DOCS_BACK_TO_CONSOLE = "Back to the console";

/** Where the API reference explains model servers, for those who run a deployment. */
export const MODEL_SERVERS_DOCS_ANCHOR = "description/model-servers";
export const MODEL_SERVERS_DOCS_PATH = `/docs#${MODEL_SERVERS_DOCS_ANCHOR}`;
/** Why a feature cannot run when no provider serves it on this deployment: it needs a GPU model server. */
export const FEATURE_NEEDS_MODEL_SERVER =
  "This feature needs an AI model server, and this deployment does not have one connected yet.";
/** The same situation as members who do not run the service read it: what it means for them. */
export const FEATURE_NOT_AVAILABLE_YET =
  "This feature is not available here yet, so nothing can be run or charged on this page. The other features work as usual.";
/** The title of the notice, to members and owners alike. */
export function featureUnavailableTitle(featureName: string): string {
  return `${featureName} is unavailable`;
}
/** The short badge of such a feature in the sidebar and the API reference. */
export const NEEDS_MODEL_SERVER_BADGE = "Needs a model server";
/** The badge of a feature that has a provider which cannot run it right now. */
export const UNAVAILABLE_BADGE = "Unavailable";
export const IMAGE_SIZE_LIMIT_TITLE = "Image Size Limit Exceeded";

const IMAGE_MEGAPIXELS = MAX_IMAGE_PIXELS / PIXELS_PER_MEGAPIXEL;
const IMAGE_PIXELS_LIMIT_SENTENCE = `The uploaded image exceeds the ${IMAGE_MEGAPIXELS} Megapixel limit.`;

/**
 * The 16 megapixel refusal. The spec gives one sentence and two ways some screens go on; which screens
 * is not shown, so the console groups them as the product's screens are grouped: this wording on the
 * single-image tools (text removal, extension, background removal, reimagine), which also phrase the
 * 30MB refusal as "Please use"; the server answers API users with it too.
 */
export const IMAGE_PIXELS_EXCEEDED: TitledMessage = {
  title: IMAGE_SIZE_LIMIT_TITLE,
  message: `${IMAGE_PIXELS_LIMIT_SENTENCE} Please use an image with dimensions under ${IMAGE_MEGAPIXELS} Megapixels.`,
};
/** The second wording: on the screens that take a mask or faces (object removal, fill, face swap, inpainting). */
export const IMAGE_PIXELS_EXCEEDED_ALT: TitledMessage = {
  title: IMAGE_SIZE_LIMIT_TITLE,
  message: `${IMAGE_PIXELS_LIMIT_SENTENCE} Please upload an image with dimensions below ${IMAGE_MEGAPIXELS} Megapixels.`,
};
/** The sentence alone: for AI Clone training, where a batch of photos is dropped at once. */
export const IMAGE_PIXELS_EXCEEDED_PLAIN: TitledMessage = {
  title: IMAGE_SIZE_LIMIT_TITLE,
  message: IMAGE_PIXELS_LIMIT_SENTENCE,
};
export const UPSCALE_PIXELS_EXCEEDED: TitledMessage = {
  title: IMAGE_SIZE_LIMIT_TITLE,
  message: `The uploaded image exceeds the ${MAX_UPSCALE_PIXELS / PIXELS_PER_MEGAPIXEL} Megapixel limit.`,
};
export const IMAGE_BYTES_EXCEEDED: TitledMessage = {
  title: IMAGE_SIZE_LIMIT_TITLE,
  message: `The uploaded image exceeds the ${MAX_IMAGE_BYTES / BYTES_PER_MB}MB limit. Please use an image smaller than ${MAX_IMAGE_BYTES / BYTES_PER_MB}MB.`,
};
/** Ours: an upload whose content is none of the accepted image formats. */
export const IMAGE_TYPE_REFUSED = `Only ${listText(ACCEPTED_IMAGE_EXTENSIONS, "and")} images are accepted.`;
/** Ours: an upload whose content is none of the accepted audio formats. */
export const AUDIO_TYPE_REFUSED = `Only ${listText(ACCEPTED_AUDIO_EXTENSIONS, "and")} audio files are accepted.`;
/** Ours: the title of an upload of another kind of file (a WAV dropped on an image input). */
export const FILE_TYPE_NOT_ACCEPTED_TITLE = "File Type Not Accepted";
/** A file that is not one of the accepted images, said with the types that are. */
export const IMAGE_TYPE_NOT_ACCEPTED: TitledMessage = {
  title: FILE_TYPE_NOT_ACCEPTED_TITLE,
  message: IMAGE_TYPE_REFUSED,
};
/** A file that is not one of the accepted audio formats, said with the formats that are. */
export const AUDIO_TYPE_NOT_ACCEPTED: TitledMessage = {
  title: FILE_TYPE_NOT_ACCEPTED_TITLE,
  message: AUDIO_TYPE_REFUSED,
};
export const IMAGE_UNREADABLE: TitledMessage = {
  title: "Error Reading Image",
  message: "An error occurred while reading the image. Please try with a different one.",
};
export const AUDIO_TOO_LONG: TitledMessage = {
  title: "Audio File Too Long",
  message: `The audio file exceeds the ${MAX_AUDIO_SECONDS / SECONDS_PER_MINUTE} minute limit. Please use a shorter file.`,
};
export const AUDIO_TOO_LARGE: TitledMessage = {
  title: "Audio File Too Large",
  message: `The audio file exceeds the ${MAX_AUDIO_BYTES / BYTES_PER_MB}MB limit. Please use a smaller file.`,
};
export const AUDIO_UNREADABLE: TitledMessage = {
  title: "Error Reading Audio File",
  message: "An error occurred while reading the audio file. Please try with a different one.",
};
export const AI_CLONE_NOT_SELECTED: TitledMessage = {
  title: "AI Clone not Selected",
  message: "Please select an AI Clone from the list.",
};
export const AI_CLONE_NAME_MISSING: TitledMessage = {
  title: "Missing AI Clone Name",
  message: "Please provide a name for your AI Clone.",
};
/** Ours: a feature call names an AI Clone that is not a finished training of the caller's project. */
export const AI_CLONE_NOT_FOUND = "AI Clone not found.";
/** Ours: a feature call names an AI Clone whose training has not reached "ready". */
export const AI_CLONE_NOT_READY = "This AI Clone is not ready yet.";
/** Ours: the spec shows the lock and its link to payments but not the sentence. */
export const TRAINING_LOCKED = "AI Clone training is available after your organization's first deposit.";
/** Image extension with all four sides at 0: the catalog's body check, the gateway and the engine. */
export const EXTENSION_SIDE_REQUIRED = "Extend at least one side.";

// ---------------------------------------------------------------------------------------------------
// Gateway protections (ours): limits on feature calls and the fields production does not take.
// ---------------------------------------------------------------------------------------------------

/** An API key made more requests in the current minute than its limit allows. */
export function apiKeyRateLimitedText(retryAfterSeconds: number): string {
  return `Too many requests with this API key. Please wait ${retryAfterSeconds} seconds and try again.`;
}
/** The organization already has as many feature calls queued or running as it may. */
export function queuedCallsLimitedText(limit: number): string {
  return `Your organization already has ${limit} feature ${limit === 1 ? "call" : "calls"} queued or running. Please wait for some to finish and try again.`;
}
/** A debugging control (catalog: `nonProductionOnly`) sent to a production server. */
export function nonProductionFieldText(field: string): string {
  return `"${field}" is a debugging option that is not available in production.`;
}
/** Compressed audio is measured by decoding it, which needs ffmpeg on the server. */
export const AUDIO_MEASURING_UNAVAILABLE =
  "This server cannot measure MP3, OGG or FLAC audio (ffmpeg is not installed). Please send a WAV file.";
/** An API key that is unknown, revoked, or of an archived project or organization. */
export const API_KEY_NOT_VALID = "The API key is not valid, or has been revoked.";
/** The API key's expiry date has passed. */
export const API_KEY_EXPIRED = "This API key has expired.";
/** The API key lists the features it may call, and this is not one of them. */
export function keyFeatureNotAllowedText(featureName: string): string {
  return `This API key is not allowed to call ${featureName}.`;
}
/** The API key lists the addresses it may be used from, and the caller's is not one of them. */
export function ipNotAllowedText(ip: string): string {
  return `This API key cannot be used from ${ip}.`;
}
/** The call's price would take the API key over a spend cap. */
export function keySpendCapReachedText(cap: "monthly" | "lifetime", capUsd: number): string {
  return cap === "monthly"
    ? `This API key has reached its spend cap of ${formatBalance(capUsd)} for this month.`
    : `This API key has reached its lifetime spend cap of ${formatBalance(capUsd)}.`;
}
/** A call with the same Idempotency-Key is still running after the retry waited for it. */
export const IDEMPOTENCY_IN_PROGRESS =
  "A request with this Idempotency-Key is still running. Please retry once it has finished.";
/** The Idempotency-Key was sent before with a different request. */
export const IDEMPOTENCY_KEY_REUSED =
  "This Idempotency-Key was already used for a different request. Use a new key for a new request.";
/** The Idempotency-Key header is empty or too long. */
export function idempotencyKeyInvalidText(maxLength: number): string {
  return `The Idempotency-Key header must be 1 to ${maxLength} characters.`;
}
/** A feature call's Content-Type names multipart/form-data without the boundary its parts need. */
export const MULTIPART_BOUNDARY_MISSING =
  "The Content-Type header says multipart/form-data but names no boundary (e.g. `multipart/form-data; boundary=...`). Let your HTTP client build the form rather than setting this header yourself.";
/** The multipart body ended before its closing boundary: the upload was cut short. */
export const MULTIPART_TRUNCATED =
  "The multipart body ended before its closing boundary: the upload was cut short, or Content-Length is larger than what was sent. Please send the whole form again.";
/** The multipart body has more parts, files or fields than any feature call takes. */
export function multipartTooManyText(what: "parts" | "files" | "fields", limit: number): string {
  return `The form has too many ${what}: a feature call takes at most ${limit}.`;
}
/** A text field of a feature call is longer than any field takes. */
export function multipartFieldTooLongText(field: string, maxBytes: number): string {
  return `The "${field}" field is too long: at most ${maxBytes / 1024} KB.`;
}
/** A request for a path that exists with other methods (405; the Allow header lists them). */
export function methodNotAllowedText(method: string, path: string, allowed: readonly string[]): string {
  return `${method} is not allowed on ${path}; use ${allowed.join(" or ")}.`;
}
/** The model server accepted a training but gave no identity to follow it by. */
export const TRAINING_NO_IDENTITY = "The model server did not return an identity.";

// ---------------------------------------------------------------------------------------------------
// Error dialogs: { title, message }.
// ---------------------------------------------------------------------------------------------------

function supportError(title: string, action: string): TitledMessage {
  return { title, message: `An error occurred while ${action}. Please try again later or contact support.` };
}

function ourSupportError(title: string, action: string): TitledMessage {
  return {
    title,
    message: `An error occurred while ${action}. Please try again later or contact our support.`,
  };
}

export const ERROR_DIALOGS = {
  retrieveMembers: supportError("Failed to Retrieve Members", "retrieving the members"),
  updateOrganization: supportError("Error Updating Organization", "updating the organization"),
  deleteOrganization: supportError("Error Deleting Organization", "archiving the organization"),
  createOrganization: supportError("Error Creating Organization", "creating the organization"),
  checkInvitations: supportError("Error Checking Invitations", "checking the invitation"),
  invalidInvitation: supportError("Invalid Invitation", "reading the invitation"),
  invitationConfirmationFailed: supportError("Invitation Confirmation Failed", "confirming the invitation"),
  /** The spec shows this title when revoking an invitation fails. */
  revokeInvitation: supportError("Error Confirming Invitation", "revoking the invitation"),
  removeUser: supportError("Error Removing User", "removing the user"),
  saveSettings: supportError("Error Saving Settings", "saving the settings"),
  transferOwnership: supportError("Error Transferring Ownership", "transferring the ownership"),
  webhooks: supportError("Webhook Error", "updating the webhooks"),
  cancelRequest: ourSupportError("Error Canceling Request", "canceling the request"),
  alerts: supportError("Error Saving Alerts", "saving the alerts"),
  paymentMethodUpdate: supportError("Payment Method Update Failed", "updating the payment method"),
  paymentMethodDelete: supportError("Payment Method Delete Failed", "deleting the payment method"),
  paymentRetrieval: {
    title: "Payment Retrieval Failed",
    message:
      "We encountered an error while retrieving your payment information. Please try again later or contact support for assistance.",
  },
  recharge: {
    title: "Error Recharging",
    message:
      "There was an error trying to process the recharge. Please try again later or contact our support.",
  },
  savePaymentSettings: {
    title: "Failed to Save Settings",
    message:
      "An error occurred while saving your payment settings. Please try again later or contact support for assistance.",
  },
  updateBilling: {
    title: "Error",
    message: "There was an error updating the organization. Please try again later or contact support.",
  },
  invoiceRetrieval: {
    title: "Invoice Retrieval Failed",
    message:
      "We encountered an error while retrieving your invoice information. Please try again later or contact support for assistance.",
  },
  updateProject: ourSupportError("Error Updating Project", "updating the project"),
  archiveProject: ourSupportError("Error Archiving Project", "archiving the project"),
  createProject: supportError("Error Creating Project", "creating the project"),
  fetchApiKeys: supportError("Error fetching API Keys", "fetching the API keys"),
  deleteApiKey: supportError("Error Deleting API Key", "deleting the API key"),
  createApiKey: supportError("Error Creating API Key", "creating the API key"),
  updateApiKey: supportError("Error updating API Key", "updating the API key"),
  insufficientBalance: {
    title: "Insufficient Balance",
    message:
      "Insufficient balance to complete the request. Please add funds to your organization to continue.",
  },
  removeObject: ourSupportError("Error Removing Object", "removing the object"),
  swapFaces: ourSupportError("Error Swapping Faces", "applying the face swapping"),
  inpaintImage: ourSupportError("Error Inpainting Image", "applying the inpainting"),
  startTraining: ourSupportError("Error Starting Training", "starting the training"),
  deleteImage: ourSupportError("Error Deleting Image", "deleting the image"),
  deleteAiClone: ourSupportError("Error Deleting AI Clone", "deleting the image"),
  deleteTranscription: ourSupportError("Error Deleting Transcription", "deleting the transcription"),
  retrieveYourImages: ourSupportError("Error Retrieving Your Images", "retrieving your images"),
  retrieveImages: ourSupportError("Error Retrieving Images", "retrieving the images"),
  retrieveAiClones: ourSupportError("Error Retrieving Your AI Clones", "retrieving your AI Clones"),
  retrieveTranscriptions: ourSupportError("Error Retrieving Transcriptions", "retrieving the transcriptions"),
  statistics: ourSupportError("Error retrieving statistics", "retrieving the statistics"),
  updateProfile: ourSupportError("Error Updating Your Profile", "updating your profile"),
  changePassword: ourSupportError("Error Changing Your Password", "changing your password"),
  logoutAllSessions: ourSupportError("Error Logging Out", "logging out from all sessions"),
} as const satisfies Record<string, TitledMessage>;

/** The way out of the Insufficient Balance dialog, for those who may pay: to the Payments page. */
export const ADD_FUNDS_LABEL = "Add funds";
/** Beside the price when the balance cannot pay for the call: said before the 402, not after. */
export function balanceShortText(balanceUsd: number): string {
  return `Your balance (${formatBalance(balanceUsd)}) does not cover this call.`;
}
/** The same, for members who cannot add funds themselves. */
export const BALANCE_SHORT_ASK = "Ask someone who manages payments in your organization to add funds.";
/** Ours: the title of a feature call refused by the monthly budget's hard stop (BUDGET_REACHED). */
export const BUDGET_REACHED_TITLE = "Monthly Budget Reached";
/** The budget dialog's way to the Payments page, where the budget is set. */
export const OPEN_PAYMENTS_LABEL = "Open Payments";

/** Confirm dialog titles of history deletes. */
export const DELETE_IMAGE_TITLE = "Delete Image";
export const DELETE_AI_CLONE_TITLE = "Delete AI Clone";
export const DELETE_TRANSCRIPTION_TITLE = "Delete Transcription";

// ---------------------------------------------------------------------------------------------------
// The human text the server sends with each error code when it has nothing more specific.
// ---------------------------------------------------------------------------------------------------

/** Ends every refusal of a feature call that was refunded (or never reserved). */
export const NOT_CHARGED = "You were not charged for it.";
/** A failed feature call: the provider's or our reason, then that nothing was charged. */
export function notChargedText(reason: string): string {
  return `${reason} ${NOT_CHARGED}`;
}
/**
 * Results the builtin engine refuses to make rather than charge for garbage (issue 27): the call answers
 * 422 with the text, stores no result and charges nothing.
 */
export const NO_FACE_IN_SOURCE = "No face was found in the source image.";
export const NO_FACE_IN_TARGET = "No face was found in the target image.";
export const NO_FOREGROUND_FOUND =
  "No subject was found in the image: removing its background would leave nothing.";
export const NO_SPEECH_FOUND = "No speech was found in the audio.";

/** A training the model server later reported failed: its charge is given back. */
export const TRAINING_FAILED_REFUNDED = notChargedText("The training failed on the model server.");
/** Why a feature call failed when its input files could not be written to the file store. */
export const FILES_NOT_STORED_REASON = "The uploaded files could not be stored.";
export const FILES_NOT_STORED = notChargedText(FILES_NOT_STORED_REASON);
/** The reason of a failed feature call when the provider gave none. */
export const CALL_NOT_COMPLETED_REASON = "The request could not be completed.";

/** A playground row whose call was canceled (refunded). */
export const CANCELED_LABEL = "Canceled";
/** A playground row waiting in the queue: where it stands (the first to start is position 1). */
export function queuedLabel(position: number | null | undefined): string {
  return position === null || position === undefined ? "Queued" : `Queued (position ${position + 1})`;
}
/** A synchronous call whose caller (or someone with access to it) canceled it before it ended. */
export const CALL_CANCELED = notChargedText("The request was canceled before it finished.");
/** Why a canceled call ended, as its record keeps it. */
export const CALL_CANCELED_REASON = "Canceled by the caller.";
/** Cancel asked of a call that has ended already. */
export function callAlreadyEndedText(state: "succeeded" | "failed" | "canceled"): string {
  return `This request has already ${state === "succeeded" ? "succeeded" : state === "failed" ? "failed" : "been canceled"}; it can no longer be canceled.`;
}
/** A call that waited in the queue longer than CALL_QUEUE_TIMEOUT_MS. */
export const CALL_QUEUE_TIMED_OUT_REASON = "The request waited too long for a free model and was stopped.";
/** A call whose process stopped (a crash) before it finished: found by the sweeper and refunded. */
export const CALL_ABANDONED_REASON = "The request was interrupted and refunded.";

/** A feature call refused by the organization's monthly budget (its hard stop is on). */
export const BUDGET_REACHED =
  "This organization has reached its monthly budget. Raise the budget on the Payments page or wait until next month.";

export const ERROR_MESSAGES = {
  "invalid-input": "The request is not valid.",
  "malformed-json": "The request body is not valid JSON.",
  "user-not-found": LOGIN_USER_NOT_FOUND,
  "user-already-exists": USER_ALREADY_EXISTS,
  "user-already-active": USER_ALREADY_ACTIVE,
  "verification-code-not-found": VERIFICATION_CODE_NOT_FOUND,
  "invalid-verification-code": INVALID_VERIFICATION_CODE,
  "invalid-reset-code": INVALID_VERIFICATION_CODE,
  "email-credentials-not-found":
    "Unable to retrieve email from the identity provider. Please try again or contact support.",
  "invitation-invalid": INVITATION_INVALID,
  unauthenticated: "You are not signed in.",
  "invalid-credentials": INVALID_PASSWORD,
  "invalid-password": INVALID_PASSWORD,
  "reauthentication-required": REAUTHENTICATION_REQUIRED,
  "invalid-api-key": "The API key is missing or not valid.",
  "api-key-expired": API_KEY_EXPIRED,
  "key-spend-cap-reached": "This API key has reached its spend cap.",
  "budget-reached": BUDGET_REACHED,
  "key-feature-not-allowed": "This API key is not allowed to call this feature.",
  "ip-not-allowed": "This API key cannot be used from this address.",
  "idempotency-in-progress": IDEMPOTENCY_IN_PROGRESS,
  "idempotency-key-reused": IDEMPOTENCY_KEY_REUSED,
  "insufficient-balance": ERROR_DIALOGS.insufficientBalance.message,
  "payment-method-required": PAYMENT_METHOD_REQUIRED,
  "card-declined": "The card was declined.",
  "payment-failed": ERROR_DIALOGS.recharge.message,
  "payment-unconfirmed": PAYMENT_UNCONFIRMED,
  "first-deposit-required": TRAINING_LOCKED,
  forbidden: "You do not have permission to do this.",
  "csrf-rejected": "The request was rejected. Please reload the page and try again.",
  "user-not-active": "Your account is not verified yet.",
  "not-found": "Not found.",
  "route-not-found": "Not found.",
  "last-organization": ARCHIVE_LAST_ORGANIZATION,
  "owner-cannot-leave": LEAVE_ORGANIZATION_REFUSED,
  "owner-immutable": "The owner's membership and permissions cannot be changed.",
  "last-project": ARCHIVE_LAST_PROJECT,
  "already-member": "This user is already a member of the organization.",
  "identity-not-ready": AI_CLONE_NOT_READY,
  "request-canceled": CALL_CANCELED,
  "request-ended": "This request has already ended; it can no longer be canceled.",
  "method-not-allowed": "Method not allowed.",
  "payload-too-large": "The request is too large.",
  "file-too-large": IMAGE_BYTES_EXCEEDED.message,
  "image-dimensions-exceeded": IMAGE_PIXELS_EXCEEDED.message,
  "audio-too-long": AUDIO_TOO_LONG.message,
  "unsupported-media-type": "Unsupported content type.",
  "unsupported-file-type": "Unsupported file type.",
  "unprocessable-input": "The request could not be processed.",
  "unreadable-file": IMAGE_UNREADABLE.message,
  "rate-limited": "Too many requests. Please wait a moment and try again.",
  "recaptcha-failed": RECAPTCHA_FAILED,
  "internal-error": GENERIC_ERROR,
  "feature-failed": notChargedText(CALL_NOT_COMPLETED_REASON),
  "feature-unavailable": "This feature is not available right now.",
  "feature-timeout": notChargedText("The request took too long and was stopped."),
  "service-unavailable": "The service is temporarily unavailable. Please try again later.",
  "invalid-two-factor-code": INVALID_TWO_FACTOR_CODE,
  "two-factor-required": TWO_FACTOR_REQUIRED,
  "two-factor-enrolment-required": TWO_FACTOR_ENROLMENT_REQUIRED,
  "two-factor-sign-in-expired": TWO_FACTOR_SIGN_IN_EXPIRED,
  "two-factor-already-enabled": TWO_FACTOR_ALREADY_ENABLED,
  "two-factor-not-enabled": TWO_FACTOR_NOT_ENABLED,
  "passkey-verification-failed": PASSKEY_CEREMONY_FAILED,
  "passkey-not-recognised": PASSKEY_NOT_RECOGNISED,
} as const satisfies Record<ErrorCode, string>;

export function errorMessageOf(code: ErrorCode): string {
  return ERROR_MESSAGES[code];
}

// ---------------------------------------------------------------------------------------------------
// Operations: metrics, readiness and restarts.
// ---------------------------------------------------------------------------------------------------

export const METRICS_TOKEN_REQUIRED = "Send the metrics token as `Authorization: Bearer <token>`.";
/** A feature call refused while the server drains for a restart; the answer carries Retry-After. */
export const SERVER_RESTARTING = `This server is restarting. Please try again in ${RESTART_RETRY_AFTER_SECONDS} seconds.`;
/** A feature call still running when a restart's deadline came: it was stopped and refunded. */
export const CALL_INTERRUPTED_BY_RESTART = `${notChargedText(
  "The server restarted while your request was running.",
)} Please try again.`;
export const NOT_READY_DATABASE = "The database is unreachable.";
export const NOT_READY_FILE_STORE = "The file store is unreachable.";
export const NOT_READY_DRAINING = "This server is shutting down.";

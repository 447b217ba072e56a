/**
 * Every business constant and limit of the specification, defined once and
 * named after its meaning. Values the spec leaves open but the server must still bound are marked
 * "our choice" so a reader knows they can move without breaking the spec.
 */

// ---------------------------------------------------------------------------------------------------
// Money: integer micro-dollars in storage and arithmetic, dollars on the wire.
// ---------------------------------------------------------------------------------------------------

export const CURRENCY = "USD";
export const MICROS_PER_USD = 1_000_000;
/** Balances and invoice amounts are shown with 2 decimals. */
export const BALANCE_DECIMALS = 2;
/** Per-call cost and the usage table's cost column are shown with 3 decimals. */
export const COST_DECIMALS = 3;

/** Minimum for a recharge, an auto-recharge threshold and an auto-recharge amount; smaller values are raised to it. */
export const MIN_RECHARGE_USD = 20;
export const DEFAULT_RECHARGE_USD = 100;
/** Our choice: an upper bound so a typo cannot charge a card a fortune. */
export const MAX_RECHARGE_USD = 10_000;
/** Auto recharge when none was ever set: disabled, threshold 0, amount 0. */
export const DEFAULT_AUTORECHARGE = { enabled: false, threshold: 0, amount: 0 } as const;

/** After a recharge the client re-reads the user until the balance moves. */
export const BALANCE_POLL_ATTEMPTS = 5;
export const BALANCE_POLL_INTERVAL_MS = 2_000;

const MICROS_PER_USD_BIG = 1_000_000n;
/** Micro-dollars have six decimal digits. */
export const MICRO_DIGITS = 6;

/**
 * Converts dollars to integer micro-dollars, rounding half away from zero on the decimal value the
 * number prints as. Multiplying by 1e6 in floating point is not exact (4.0000005 * 1e6 is
 * 4000000.4999999995), so the conversion works on the shortest decimal representation instead.
 */
export function usdToMicros(usd: number): bigint {
  if (!Number.isFinite(usd)) {
    throw new RangeError(`Not a finite dollar amount: ${usd}`);
  }
  const negative = usd < 0;
  const [digits, pointPosition] = decimalDigits(Math.abs(usd));
  // Shift the decimal point 6 places right; digits past it decide the rounding.
  const integerLength = pointPosition + MICRO_DIGITS;
  let micros: bigint;
  if (integerLength <= 0) {
    micros = integerLength === 0 && Number(digits[0] ?? "0") >= 5 ? 1n : 0n;
  } else {
    const padded = digits.padEnd(integerLength, "0");
    micros = BigInt(padded.slice(0, integerLength));
    if (Number(padded[integerLength] ?? "0") >= 5) {
      micros += 1n;
    }
  }
  return negative && micros !== 0n ? -micros : micros;
}

/** Converts micro-dollars to the nearest dollar number (exact for every amount below 9 billion dollars). */
export function microsToUsd(micros: bigint | number): number {
  const value = typeof micros === "bigint" ? micros : BigInt(Math.round(micros));
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / MICROS_PER_USD_BIG;
  const fraction = (magnitude % MICROS_PER_USD_BIG).toString().padStart(MICRO_DIGITS, "0");
  // Parsing the decimal text gives the correctly rounded double, unlike a float division for big values.
  const usd = Number(`${whole}.${fraction}`);
  return negative ? -usd : usd;
}

const MICROS_PER_CENT = 10_000n;

/**
 * A dollar amount rounded to whole cents, half away from zero on its decimal value: `Math.round(x *
 * 100) / 100` takes 20.005 to 20.00, because 20.005 * 100 is 2000.4999999999998 as a double.
 */
export function roundUsdToCents(usd: number): number {
  const micros = usdToMicros(usd);
  const magnitude = micros < 0n ? -micros : micros;
  const cents = (magnitude + MICROS_PER_CENT / 2n) / MICROS_PER_CENT;
  return microsToUsd(micros < 0n ? -cents * MICROS_PER_CENT : cents * MICROS_PER_CENT);
}

/** Whether a dollar amount is a whole number of cents, as card payments require. */
export function isWholeCents(usd: number): boolean {
  return Number.isFinite(usd) && usdToMicros(usd) % MICROS_PER_CENT === 0n;
}

/** The significant digits of a non-negative number and where its decimal point falls among them. */
function decimalDigits(value: number): [digits: string, pointPosition: number] {
  const [mantissa = "0", exponentText] = value.toString().split("e");
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const [integerPart = "0", fractionPart = ""] = mantissa.split(".");
  return [`${integerPart}${fractionPart}`, integerPart.length + exponent];
}

// ---------------------------------------------------------------------------------------------------
// Sessions, accounts, codes.
// ---------------------------------------------------------------------------------------------------

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const PASSWORD_MIN_LENGTH = 8;
/** Our choice: bounds the work of hashing an attacker-supplied password. */
export const PASSWORD_MAX_LENGTH = 256;
/** Session lifetime with Remember Me: 1 year. */
export const REMEMBER_ME_SESSION_MS = 365 * DAY_MS;
/** Session lifetime without Remember Me: 1 day. */
export const SESSION_MS = DAY_MS;
/** Our choice: verification and reset codes are short-lived and attempt-limited. */
export const VERIFICATION_CODE_TTL_MS = 15 * MINUTE_MS;
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
export const VERIFICATION_CODE_LENGTH = 6;
/** Our choice: how long an invitation link stays valid. */
/**
 * The cookie the console keeps an invitation link's id in across sign-up and sign-in (the spec's
 * `invitationId`); the server reads it when an account is activated, so an invitee is not given an
 * organization of their own before the Join prompt.
 */
export const INVITATION_COOKIE = "invitationId";
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * DAY_MS;
/** Our choice: how many addresses one invite may carry. */
export const INVITE_MAX_EMAILS = 50;
/** Our choice: invitations (one per address) one member may send per hour, across organizations. */
export const INVITATIONS_PER_INVITER_PER_HOUR = 100;
/** Our choice: invitations one organization may send per hour, whoever sends them. */
export const INVITATIONS_PER_ORGANIZATION_PER_HOUR = 150;
/** Our choice: length bounds of free-text names (people, organizations, projects, keys, clones). */
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
/** Our choice: bound of billing detail fields. */
export const BILLING_FIELD_MAX_LENGTH = 200;
/** Our choice: bound of opaque ids and tokens received from the client. */
export const ID_MAX_LENGTH = 128;
export const TOKEN_MAX_LENGTH = 4_096;

/** The name an API key gets when it is created with an empty name. */
export const API_KEY_NO_NAME = "- no name -";
/** Shown in the API key table when both creator names are missing. */
export const API_KEY_UNKNOWN_CREATOR = "Unknown";

// ---------------------------------------------------------------------------------------------------
// Client timings.
// ---------------------------------------------------------------------------------------------------

export const NOTIFICATION_MS = 3_000;
export const SNIPPET_COPIED_MS = 2_000;
export const ELAPSED_TIMER_REFRESH_MS = 100;
export const STATISTICS_TIMEOUT_MS = 5_000;
/** users/me, logout, project update and project delete. */
export const SHORT_CALL_TIMEOUT_MS = 5_000;
/** users/create, users/confirm, users/reset-password. */
export const ACCOUNT_CALL_TIMEOUT_MS = 10_000;
/** Google and GitHub sign-in. */
export const OAUTH_CALL_TIMEOUT_MS = 7_000;
/** The longest a deployment may let the server wait for a model provider (PROVIDER_TIMEOUT_MS). */
export const PROVIDER_TIMEOUT_MAX_MS = 3_600_000;
/**
 * A playground feature call from the browser: a minute beyond the longest provider wait, so the
 * server's own 504 (feature-timeout) arrives first and this only ends a connection that hangs.
 */
export const FEATURE_CALL_TIMEOUT_MS = PROVIDER_TIMEOUT_MAX_MS + 60_000;
export const LIGHTBOX_FADE_MS = 200;
export const LIGHTBOX_RESIZE_MS = 200;
export const LIGHTBOX_IMAGE_FADE_MS = 100;
export const LOADING_PARTICLE_COUNT = 100;
/**
 * Our choice: a users/me refresh that failed without a 401 (timeout, network) keeps the session and is
 * tried again after this long.
 */
export const SESSION_REFRESH_RETRY_MS = 15_000;
/** Our choice: how long "Resend code" waits after a code was mailed (the server also throttles). */
export const RESEND_CODE_COOLDOWN_SECONDS = 30;

// ---------------------------------------------------------------------------------------------------
// Paging.
// ---------------------------------------------------------------------------------------------------

/** Our choice: the spec shows the invoice pager but not its page size. */
export const INVOICES_PAGE_SIZE = 10;
/** An invoice's PDF link works once, and only this long: enough to open, too short to leak usefully. */
export const INVOICE_LINK_TTL_MINUTES = 5;
/** Our choice: "page size is decided by the server". */
export const HISTORY_PAGE_SIZE = 20;
/**
 * The deepest offset the playground history serves (250 pages): an offset walks the rows it skips, so
 * deeper pages are read by cursor, which costs what the first page does (decision 022).
 */
export const HISTORY_MAX_OFFSET = 5_000;
/** Pagination shows every page link up to this many pages; beyond, first, last and a window. */
export const PAGINATION_FULL_LINKS = 9;
/** Pages either side of the current one in the windowed pager. */
export const PAGINATION_WINDOW = 2;

// ---------------------------------------------------------------------------------------------------
// Usage page.
// ---------------------------------------------------------------------------------------------------

/** The pie chart shows features above this share of the cost ... */
export const PIE_MIN_PERCENT = 1;
/** ... or the top ones by cost when fewer than this many qualify. */
export const PIE_MIN_SLICES = 4;
export const FEATURE_DROPDOWN_MAX_HEIGHT_PX = 500;
export const MONTH_PICKER_FORMAT = "Y-m";

// ---------------------------------------------------------------------------------------------------
// Prompts and generation.
// ---------------------------------------------------------------------------------------------------

export const PROMPT_MAX_LENGTH = 1_000;
export const IMAGE_COUNT_MIN = 1;
export const IMAGE_COUNT_MAX = 4;
export const IMAGE_COUNT_DEFAULT = 1;
/** About 50 random prompts per generation screen. */
export const RANDOM_PROMPT_COUNT = 50;

export interface Resolution {
  readonly width: number;
  readonly height: number;
  readonly label: string;
}

/** The resolution choices; any other size is labelled custom. */
export const RESOLUTIONS = [
  { width: 1024, height: 1024, label: "1:1" },
  { width: 1024, height: 576, label: "16:9" },
  { width: 576, height: 1024, label: "9:16" },
  { width: 820, height: 1024, label: "4:5" },
] as const satisfies readonly Resolution[];
export const DEFAULT_RESOLUTION: Resolution = RESOLUTIONS[0];
export const CUSTOM_RESOLUTION_LABEL = "custom";
/** Our choice: bounds of a custom generation size. */
export const GENERATION_MIN_SIDE = 256;
export const GENERATION_MAX_SIDE = 2_048;

export function resolutionLabel(width: number, height: number): string {
  return RESOLUTIONS.find((r) => r.width === width && r.height === height)?.label ?? CUSTOM_RESOLUTION_LABEL;
}

// ---------------------------------------------------------------------------------------------------
// Uploads.
// ---------------------------------------------------------------------------------------------------

/** Limits in bytes and pixels are shown to people in binary megabytes and megapixels. */
export const BYTES_PER_MB = 1_048_576;
export const PIXELS_PER_MEGAPIXEL = 1_048_576;

/** 30 MB. */
export const MAX_IMAGE_BYTES = 31_457_280;
/** 16 megapixels. */
export const MAX_IMAGE_PIXELS = 16_777_216;
/** 4 megapixels, for upscaling. */
export const MAX_UPSCALE_PIXELS = 4_194_304;
/** No side of an extended image may exceed this. */
export const MAX_EXTENSION_SIDE = 4_096;
/** 20 MB. */
export const MAX_AUDIO_BYTES = 20_971_520;
/** 5 minutes. */
export const MAX_AUDIO_SECONDS = 300;
/** Audio limits are shown to people in minutes. */
export const SECONDS_PER_MINUTE = 60;
/** Transcription is billed per started minute. */
export const AUDIO_BILLING_SECONDS = 60;

// ---------------------------------------------------------------------------------------------------
// Gateway protections (ours; the server's environment may change each).
// ---------------------------------------------------------------------------------------------------

/**
 * A feature call refused before its upload was read (401, 402, 403, 429) still lets the client finish
 * sending it, read and thrown away, so every client reads the answer (issue 30): at most the feature's
 * largest legitimate body, and for at most this long (a 30 MB image on the 1 MB/s line, with room).
 */
export const UNREAD_BODY_DRAIN_MS = 45_000;
/** Requests one API key may make per minute (API_KEY_REQUESTS_PER_MINUTE). */
export const DEFAULT_API_KEY_REQUESTS_PER_MINUTE = 600;
/** The header that makes a feature call idempotent (as Stripe's API), and the longest key it takes. */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
/** The header as documentation and code samples spell it. */
export const IDEMPOTENCY_KEY_HEADER_NAME = "Idempotency-Key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a feature call's answer is kept for retries with the same Idempotency-Key. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/**
 * How long a retry waits for the first call with its Idempotency-Key to finish before answering 409
 * `idempotency-in-progress`.
 */
export const IDEMPOTENCY_WAIT_SECONDS = 60;
/** The answer replayed for a repeated Idempotency-Key carries this header set to "true". */
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";
/** Bounds of the limits an API key can carry. */
export const API_KEY_MAX_ALLOWED_IPS = 50;
export const API_KEY_MAX_REQUESTS_PER_MINUTE = 100_000;
export const API_KEY_MAX_SPEND_CAP_USD = 1_000_000;
/** Calls shown in an API key's detail drawer. */
export const API_KEY_RECENT_CALLS = 20;
/**
 * Feature calls one organization may have queued or running at once (ORGANIZATION_QUEUED_CALLS): the
 * queue takes a burst and runs it as capacity frees (decision 019); beyond this it answers 429.
 */
export const DEFAULT_ORGANIZATION_QUEUED_CALLS = 1_000;
/** Calls a model server takes at once across every server process (MODEL_SERVER_CONCURRENCY). */
export const DEFAULT_MODEL_SERVER_CONCURRENCY = 4;
/** Calls an OpenAI-compatible API takes at once across every server process (OPENAI_CONCURRENCY). */
export const DEFAULT_OPENAI_CONCURRENCY = 8;
/** Longest a call may wait in the queue before it is failed and refunded (CALL_QUEUE_TIMEOUT_MS). */
export const DEFAULT_CALL_QUEUE_TIMEOUT_MS = 3_600_000;
/**
 * `Prefer: respond-async` asks for `202 Accepted` at once; `Prefer: wait=N` waits up to N seconds
 * (at most this many) for the call to end before answering 202 (RFC 7240).
 */
export const PREFER_WAIT_MAX_SECONDS = 60;
/** `Retry-After` of a 409 `idempotency-in-progress`: the retry waits for the first call again. */
export const IDEMPOTENCY_IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
export const PREFER_HEADER = "prefer";
export const PREFERENCE_APPLIED_HEADER = "preference-applied";
/** Per-call webhook events (`webhook_events_filter`): when the call starts running, and when it ends. */
export const CALL_WEBHOOK_EVENTS = ["start", "completed"] as const;
export type CallWebhookEvent = (typeof CALL_WEBHOOK_EVENTS)[number];
export const DEFAULT_CALL_WEBHOOK_EVENTS: readonly CallWebhookEvent[] = ["completed"];
/** The per-call webhook's URL: at most this long. */
export const CALL_WEBHOOK_URL_MAX_LENGTH = 2_048;

export const ACCEPTED_IMAGE_EXTENSIONS = [".jpg", ".jpeg", ".png", ".webp"] as const;
export const ACCEPTED_IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const ACCEPTED_AUDIO_EXTENSIONS = [".mp3", ".wav", ".ogg", ".flac"] as const;
export const ACCEPTED_AUDIO_MIME_TYPES = [
  "audio/mpeg",
  "audio/mp3",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/ogg",
  "audio/flac",
  "audio/x-flac",
] as const;

/** Stored images have a thumbnail at the same URL with this suffix before the extension. */
export const THUMBNAIL_SUFFIX = "_thumb";
/** A thumbnail fits in a square of this many pixels. */
export const THUMBNAIL_MAX_SIDE = 320;

// ---------------------------------------------------------------------------------------------------
// AI Clone training.
// ---------------------------------------------------------------------------------------------------

export const TRAINING_MIN_IMAGES = 10;
/** Extra images beyond this are ignored by the client. */
export const TRAINING_MAX_IMAGES = 15;
/** Each training image is resized so its short side is this many pixels ... */
export const TRAINING_IMAGE_SHORT_SIDE = 1_024;
/** ... and encoded as JPEG at this quality. */
export const TRAINING_JPEG_QUALITY = 0.95;

// ---------------------------------------------------------------------------------------------------
// A feature call's multipart body (after the training limits, which the file count follows).
// ---------------------------------------------------------------------------------------------------

/** Text fields of a feature call's multipart body: how many, and the longest value. */
export const MULTIPART_MAX_FIELDS = 32;
export const MULTIPART_MAX_FIELD_BYTES = 16 * 1024;
/** Files of a feature call's multipart body: a training's photos and room for the rest. */
export const MULTIPART_MAX_FILES = TRAINING_MAX_IMAGES + 2;
/** Parts of a feature call's multipart body, files and fields together. */
export const MULTIPART_MAX_PARTS = 64;

// ---------------------------------------------------------------------------------------------------
// Request timeouts (REQUEST_TIMEOUT_MS may change the default).
// ---------------------------------------------------------------------------------------------------

/** The largest body a legitimate call sends: a training's photos, each at the image limit (450 MB). */
export const MAX_REQUEST_BODY_BYTES = TRAINING_MAX_IMAGES * MAX_IMAGE_BYTES;
/** The slow upload line a request's whole body must fit in time: 1 MB/s (about 8 Mbit/s). */
export const SLOW_UPLOAD_BYTES_PER_SECOND = BYTES_PER_MB;
/**
 * How long a request may take to arrive whole, headers and body (8 minutes): the largest body on the
 * slow line, rounded up to a minute. A body that trickles in (one byte every 20 s kept a sign-in open
 * for good) is cut off with 408 then; the time a call then waits for its model is not counted.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS =
  Math.ceil(MAX_REQUEST_BODY_BYTES / SLOW_UPLOAD_BYTES_PER_SECOND / 60) * 60_000;
/** "Training takes 30 minutes or more." */
export const TRAINING_EXPECTED_MINUTES = 30;

// ---------------------------------------------------------------------------------------------------
// Mask editor and debug controls.
// ---------------------------------------------------------------------------------------------------

export const BRUSH_MIN = 2;
export const BRUSH_MAX = 200;
export const BRUSH_DEFAULT = 30;
export const MASK_OPACITY_MIN = 0;
export const MASK_OPACITY_MAX = 1;
export const MASK_OPACITY_STEP = 0.05;
export const MASK_OPACITY_DEFAULT = 0.8;
/** Face swapping with a custom mask but nothing drawn sends an all-black JPEG at this quality. */
export const EMPTY_MASK_JPEG_QUALITY = 1;

export const GENERATIVE_FILL_DEFAULT_DENOISE = 0.7;
export const GENERATIVE_FILL_DEFAULT_CFG = 46;
export const CFG_MIN = 1;
export const CFG_MAX = 100;

/** The denoise slider of reimagine, also the non-production debug slider of generative fill. */
export const REIMAGINE_DENOISE_MIN = 0.5;
export const REIMAGINE_DENOISE_MAX = 1;
export const REIMAGINE_DENOISE_STEP = 0.01;
export const REIMAGINE_DENOISE_DEFAULT = 0.7;
export const REIMAGINE_DENOISE_DECIMALS = 2;

// ---------------------------------------------------------------------------------------------------
// Transcription.
// ---------------------------------------------------------------------------------------------------

export const DEFAULT_TRANSCRIPTION_LANGUAGE = "en";

// ---------------------------------------------------------------------------------------------------
// Feature calls.
// ---------------------------------------------------------------------------------------------------

/** Feature calls from the console name their project in this header. */
export const PROJECT_HEADER = "x-authorization-project";
/** Calls that use an AI Clone name its training request in this header. */
export const IDENTITY_REQUEST_HEADER = "x-authorization-identity-request-id";
/** API users authenticate feature calls with `Authorization: Bearer <key>`. */
export const API_KEY_HEADER = "authorization";
/** Every API key starts with this, so secret scanners can recognise a leaked one. */
export const API_KEY_PREFIX = "psk_";
/** The product's name in mails, invoices, page titles and the API reference. */
export const PRODUCT_NAME = "Prism";
/** The npm name of the official TypeScript client (packages/sdk), as the docs tell people to install it. */
export const SDK_PACKAGE_NAME = "@prism/sdk";
/** Retry-After (seconds) on a feature call refused while a server drains for a restart. */
export const RESTART_RETRY_AFTER_SECONDS = 5;

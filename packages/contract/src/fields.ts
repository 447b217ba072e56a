import { z } from "zod";
import {
  EMAIL_MAX_LENGTH,
  ID_MAX_LENGTH,
  isWholeCents,
  MAX_RECHARGE_USD,
  MIN_RECHARGE_USD,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TOKEN_MAX_LENGTH,
} from "./limits";
import {
  CONTROL_CHARACTERS_REFUSED,
  EMAIL_ADDRESS_REQUIRED,
  INVALID_EMAIL_ADDRESS,
  NAME_REQUIRED,
  PASSWORD_REQUIRED,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_WEAK,
} from "./messages";
import { hasPasswordCharacterClasses } from "./password";

/** Building blocks shared by the entity and call schemas, so one rule is written once. */

/** An entity id (UUID on our server; only non-empty and bounded is promised to clients). */
export const idSchema = z.string().trim().min(1).max(ID_MAX_LENGTH);

/** An e-mail address as typed: trimmed and lower-cased before it is checked, so lookups are case-blind. */
export const emailSchema = z
  .string({ error: EMAIL_ADDRESS_REQUIRED })
  .trim()
  .toLowerCase()
  .min(1, EMAIL_ADDRESS_REQUIRED)
  .max(EMAIL_MAX_LENGTH, INVALID_EMAIL_ADDRESS)
  .pipe(z.email(INVALID_EMAIL_ADDRESS));

/**
 * What no name or other one-line field may hold: control characters (line breaks, tabs, the rest of the
 * C0 and C1 ranges), Unicode's line and paragraph separators, and its bidirectional formatting
 * characters (marks, embeddings, overrides, isolates), which reorder what a reader sees. A name is
 * shown to other people, in mails sent to strangers (an invitation names the organization) and in
 * exports: with line breaks it writes lines of its own ("NOTICE: your card was declined..."), with an
 * override it shows text other than what it holds.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** `schema` refusing {@link hasControlCharacters} with the contract's message: every name uses it. */
export function singleLine<T extends z.ZodString>(schema: T): T {
  return schema.refine((text) => !hasControlCharacters(text), CONTROL_CHARACTERS_REFUSED);
}

/** A required display name (organization, project, clone, ...). */
export const nameSchema = singleLine(
  z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(NAME_MAX_LENGTH),
);

/** An opaque token from a third party (captcha, OAuth credential, client secret). */
export const tokenSchema = z.string().trim().min(1).max(TOKEN_MAX_LENGTH);

/** ISO-8601 timestamp as the server sends it (`Date.prototype.toISOString`, offsets tolerated). */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** A calendar day `YYYY-MM-DD` (UTC). */
export const isoDateSchema = z.iso.date();

/** A dollar amount on the wire. */
export const usdSchema = z.number().finite();

/** A recharge or auto-recharge amount: at least 20 dollars, whole cents, bounded. */
export const rechargeUsdSchema = z
  .number()
  .finite()
  .min(MIN_RECHARGE_USD, `The minimum amount is $${MIN_RECHARGE_USD}.`)
  .max(MAX_RECHARGE_USD, `The maximum amount is $${MAX_RECHARGE_USD}.`)
  .refine(isWholeCents, "The amount must be in whole cents.");

/** Bot-check fields carried by the public account calls; absent when the bot check is off. */
export const recaptchaFields = {
  recaptchaToken: tokenSchema.optional(),
  recaptchaType: z.enum(["v3", "v2"]).optional(),
};

export const RECAPTCHA_TYPES = ["v3", "v2"] as const;
export type RecaptchaType = (typeof RECAPTCHA_TYPES)[number];

/**
 * The answer of a call whose response the spec does not show: `{}`. The schema is a plain (stripping)
 * object so the server may add fields later without breaking older clients.
 */
export const emptyResponse = z.object({});
export type EmptyResponse = z.infer<typeof emptyResponse>;

/**
 * A new password as the server accepts it. Never trimmed: spaces are part of a password.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_REQUIRED })
  .min(1, PASSWORD_REQUIRED)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
  .refine(hasPasswordCharacterClasses, PASSWORD_TOO_WEAK);

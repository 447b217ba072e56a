import { regexes } from "zod/v4/core";
import { EMAIL_MAX_LENGTH } from "./limits";

/**
 * The e-mail rule of `emailSchema` (fields.ts) as a plain check, for forms that must not load zod's
 * schemas (the sign-in page, issue 16): the address trimmed and lower-cased, bounded, and matched by the
 * very pattern `z.email()` uses. email.test.ts holds the two to the same answers.
 */
export function isEmailAddress(value: string): boolean {
  const email = value.trim().toLowerCase();
  return email.length > 0 && email.length <= EMAIL_MAX_LENGTH && regexes.email.test(email);
}

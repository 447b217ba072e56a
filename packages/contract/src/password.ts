import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./limits";
import {
  PASSWORD_STRONG,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_WEAK,
  PASSWORDS_DO_NOT_MATCH,
} from "./messages";

/** The special characters a password must use one of, backslash and slash included. */
export const PASSWORD_SPECIAL_CHARACTERS = "!@#$%^&*()_+{}[]:;<>,.?~\\/-";

export interface PasswordCheck {
  /** True when every rule passes (and the confirmation matches, when one was given). */
  readonly ok: boolean;
  /** The first failing rule's message, the success text, or "" for an empty password. */
  readonly message: string;
}

export function hasPasswordCharacterClasses(password: string): boolean {
  return (
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /[0-9]/.test(password) &&
    [...password].some((character) => PASSWORD_SPECIAL_CHARACTERS.includes(character))
  );
}

/**
 * The live password check of the sign-up, reset and profile forms. The message is cleared while the
 * password is empty, as the spec asks; the confirmation is compared only when one is passed.
 */
export function checkPassword(password: string, confirmation?: string): PasswordCheck {
  if (password === "") {
    return { ok: false, message: "" };
  }
  if (password.length < PASSWORD_MIN_LENGTH) {
    return { ok: false, message: PASSWORD_TOO_SHORT };
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return { ok: false, message: PASSWORD_TOO_LONG };
  }
  if (!hasPasswordCharacterClasses(password)) {
    return { ok: false, message: PASSWORD_TOO_WEAK };
  }
  if (confirmation !== undefined && confirmation !== password) {
    return { ok: false, message: PASSWORDS_DO_NOT_MATCH };
  }
  return { ok: true, message: PASSWORD_STRONG };
}

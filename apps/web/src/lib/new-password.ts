import { checkPassword, PASSWORD_REQUIRED } from "@prism/contract";

/**
 * A new password on any form (sign-up, reset, profile): required, then every live rule of the spec.
 * The live feedback under the fields already names the failing rule, so a failing rule only blocks
 * the submit (`blocked`) and adds no second message; `error` is set for an empty password.
 */
export function checkNewPassword(
  password: string,
  confirmation: string,
): { error?: string; blocked: boolean } {
  if (password === "") return { error: PASSWORD_REQUIRED, blocked: true };
  return { blocked: !checkPassword(password, confirmation).ok };
}

import {
  EMAIL_ADDRESS_REQUIRED,
  FIRST_NAME_REQUIRED,
  FORGOT_PASSWORD_EMAIL_REQUIRED,
  INVALID_EMAIL_ADDRESS,
  isEmailAddress,
  LAST_NAME_REQUIRED,
  PASSWORD_REQUIRED,
  TERMS_REQUIRED,
  VERIFICATION_CODE_REQUIRED,
} from "@prism/contract";
import { checkNewPassword } from "../../../lib/new-password";

/** Field name → message; a form may be submitted when it is empty. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean);
}

/** Required, then shaped like an address (the contract's own e-mail rule). */
export function emailError(email: string, requiredMessage = EMAIL_ADDRESS_REQUIRED): string | undefined {
  if (email.trim() === "") return requiredMessage;
  return isEmailAddress(email) ? undefined : INVALID_EMAIL_ADDRESS;
}

export interface SignInValues {
  email: string;
  password: string;
}

export function validateSignIn(values: SignInValues): FieldErrors<keyof SignInValues> {
  return {
    email: emailError(values.email),
    password: values.password === "" ? PASSWORD_REQUIRED : undefined,
  };
}

export interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
}

export function validateSignUp(values: SignUpValues): {
  errors: FieldErrors<"firstName" | "lastName" | "email" | "password" | "acceptTerms">;
  blocked: boolean;
} {
  const password = checkNewPassword(values.password, values.confirmPassword);
  const errors = {
    firstName: values.firstName.trim() === "" ? FIRST_NAME_REQUIRED : undefined,
    lastName: values.lastName.trim() === "" ? LAST_NAME_REQUIRED : undefined,
    email: emailError(values.email),
    password: password.error,
    acceptTerms: values.acceptTerms ? undefined : TERMS_REQUIRED,
  };
  return { errors, blocked: hasErrors(errors) || password.blocked };
}

export function validateVerificationCode(code: string): string | undefined {
  return code.trim() === "" ? VERIFICATION_CODE_REQUIRED : undefined;
}

export function validateForgotPassword(email: string): string | undefined {
  return emailError(email, FORGOT_PASSWORD_EMAIL_REQUIRED);
}

export interface ResetValues {
  code: string;
  password: string;
  confirmPassword: string;
}

export function validateReset(values: ResetValues): {
  errors: FieldErrors<"code" | "password">;
  blocked: boolean;
} {
  const password = checkNewPassword(values.password, values.confirmPassword);
  const errors = { code: validateVerificationCode(values.code), password: password.error };
  return { errors, blocked: hasErrors(errors) || password.blocked };
}

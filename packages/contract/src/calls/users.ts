import { z } from "zod";
import { defineCall } from "../define-call";
import { userInfoSchema } from "../entities";
import {
  emailSchema,
  emptyResponse,
  passwordSchema,
  recaptchaFields,
  singleLine,
  tokenSchema,
} from "../fields";
import {
  ACCOUNT_CALL_TIMEOUT_MS,
  NAME_MAX_LENGTH,
  OAUTH_CALL_TIMEOUT_MS,
  SHORT_CALL_TIMEOUT_MS,
} from "../limits";
import {
  FIRST_NAME_REQUIRED,
  LAST_NAME_REQUIRED,
  PASSWORD_REQUIRED,
  REQUIRED_FIELDS_MISSING,
  VERIFICATION_CODE_REQUIRED,
} from "../messages";

/** Account calls: sign-up, sign-in (password, Google, GitHub), recovery, session and profile. */

const rememberMe = z.boolean().optional().default(false);

/** A code typed by the user; spaces around it are a copy-paste accident, not part of it. */
const codeSchema = z
  .string({ error: VERIFICATION_CODE_REQUIRED })
  .trim()
  .min(1, VERIFICATION_CODE_REQUIRED)
  .max(32);

/** Sign-in checks only that a password was given: the rules apply to new passwords, not old ones. */
const existingPasswordSchema = z.string({ error: PASSWORD_REQUIRED }).min(1, PASSWORD_REQUIRED).max(1_024);

export const loginRequest = z.object({
  email: emailSchema,
  password: existingPasswordSchema,
  rememberMe,
  ...recaptchaFields,
});
export const loginResponse = userInfoSchema;
export const loginCall = defineCall({
  path: "/v1/users/login",
  auth: "public",
  access: { scope: "public" },
  request: loginRequest,
  response: loginResponse,
});

export const createUserRequest = z.object({
  firstName: singleLine(
    z.string({ error: FIRST_NAME_REQUIRED }).trim().min(1, FIRST_NAME_REQUIRED).max(NAME_MAX_LENGTH),
  ),
  lastName: singleLine(
    z.string({ error: LAST_NAME_REQUIRED }).trim().min(1, LAST_NAME_REQUIRED).max(NAME_MAX_LENGTH),
  ),
  email: emailSchema,
  password: passwordSchema,
  ...recaptchaFields,
});
/** Sign-up answers `{}` and sends a verification code by mail; the user signs in by confirming it. */
export const createUserResponse = emptyResponse;
export const createUserCall = defineCall({
  path: "/v1/users/create",
  auth: "public",
  access: { scope: "public" },
  request: createUserRequest,
  response: createUserResponse,
  timeoutMs: ACCOUNT_CALL_TIMEOUT_MS,
});

export const confirmUserRequest = z.object({
  email: emailSchema,
  verificationCode: codeSchema,
  ...recaptchaFields,
});
/** A confirmed account is signed in at once (a session cookie is set). */
export const confirmUserResponse = userInfoSchema;
export const confirmUserCall = defineCall({
  path: "/v1/users/confirm",
  auth: "public",
  access: { scope: "public" },
  request: confirmUserRequest,
  response: confirmUserResponse,
  timeoutMs: ACCOUNT_CALL_TIMEOUT_MS,
});

export const forgotPasswordRequest = z.object({
  email: emailSchema,
  ...recaptchaFields,
});
export const forgotPasswordResponse = emptyResponse;
export const forgotPasswordCall = defineCall({
  path: "/v1/users/forgot-password",
  auth: "public",
  access: { scope: "public" },
  request: forgotPasswordRequest,
  response: forgotPasswordResponse,
});

export const resetPasswordRequest = z.object({
  email: emailSchema,
  password: passwordSchema,
  resetCode: codeSchema,
  ...recaptchaFields,
});
/** The client signs in with the new password afterwards; a reset also ends every other session. */
export const resetPasswordResponse = emptyResponse;
export const resetPasswordCall = defineCall({
  path: "/v1/users/reset-password",
  auth: "public",
  access: { scope: "public" },
  request: resetPasswordRequest,
  response: resetPasswordResponse,
  timeoutMs: ACCOUNT_CALL_TIMEOUT_MS,
});

export const googleLoginRequest = z.object({
  /** The ID token (JWT) from Google Identity Services. */
  credential: tokenSchema,
  rememberMe,
});
export const googleLoginResponse = userInfoSchema;
export const googleLoginCall = defineCall({
  path: "/v1/users/google-login-request",
  auth: "public",
  access: { scope: "public" },
  request: googleLoginRequest,
  response: googleLoginResponse,
  timeoutMs: OAUTH_CALL_TIMEOUT_MS,
});

export const githubLoginRequest = z.object({
  /** The `code` query parameter GitHub sent to /login-github-callback. */
  credential: tokenSchema,
  rememberMe,
});
export const githubLoginResponse = userInfoSchema;
export const githubLoginCall = defineCall({
  path: "/v1/users/github-login-request",
  auth: "public",
  access: { scope: "public" },
  request: githubLoginRequest,
  response: githubLoginResponse,
  timeoutMs: OAUTH_CALL_TIMEOUT_MS,
});

export const meRequest = z.object({});
export const meResponse = userInfoSchema;
export const meCall = defineCall({
  path: "/v1/users/me",
  auth: "session",
  access: { scope: "account" },
  request: meRequest,
  response: meResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const logoutRequest = z.object({});
export const logoutResponse = emptyResponse;
export const logoutCall = defineCall({
  path: "/v1/users/logout",
  auth: "session",
  access: { scope: "account" },
  request: logoutRequest,
  response: logoutResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const logoutAllSessionsRequest = z.object({});
export const logoutAllSessionsResponse = emptyResponse;
export const logoutAllSessionsCall = defineCall({
  path: "/v1/users/logout-all-sessions",
  auth: "session",
  access: { scope: "account" },
  request: logoutAllSessionsRequest,
  response: logoutAllSessionsResponse,
});

export const updateProfileRequest = z.object({
  firstName: singleLine(z.string().trim().min(1, REQUIRED_FIELDS_MISSING).max(NAME_MAX_LENGTH)),
  lastName: singleLine(z.string().trim().min(1, REQUIRED_FIELDS_MISSING).max(NAME_MAX_LENGTH)),
});
export const updateProfileResponse = emptyResponse;
export const updateProfileCall = defineCall({
  path: "/v1/users/settings/update-profile",
  auth: "session",
  access: { scope: "account" },
  request: updateProfileRequest,
  response: updateProfileResponse,
});

/**
 * The spec sends only the new password; the current one (or another sign-in proof) is given to
 * `users/reauthenticate` first, as for every sensitive call (decision 020).
 */
export const changePasswordRequest = z.object({
  password: passwordSchema,
});
export const changePasswordResponse = emptyResponse;
export const changePasswordCall = defineCall({
  path: "/v1/users/change-password",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: changePasswordRequest,
  response: changePasswordResponse,
});

export const userCalls = {
  login: loginCall,
  create: createUserCall,
  confirm: confirmUserCall,
  forgotPassword: forgotPasswordCall,
  resetPassword: resetPasswordCall,
  googleLogin: googleLoginCall,
  githubLogin: githubLoginCall,
  me: meCall,
  logout: logoutCall,
  logoutAllSessions: logoutAllSessionsCall,
  updateProfile: updateProfileCall,
  changePassword: changePasswordCall,
} as const;

/** Parsed request shapes (what the server sees); clients type their input with `CallRequest<typeof call>`. */
export type LoginRequest = z.infer<typeof loginRequest>;
export type CreateUserRequest = z.infer<typeof createUserRequest>;
export type ConfirmUserRequest = z.infer<typeof confirmUserRequest>;
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;
export type GoogleLoginRequest = z.infer<typeof googleLoginRequest>;
export type GithubLoginRequest = z.infer<typeof githubLoginRequest>;
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

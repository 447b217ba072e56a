import { z } from "zod";
import {
  INVALID_TWO_FACTOR_CODE,
  PASSKEY_NAME_MAX_LENGTH,
  PASSKEY_NAME_REQUIRED,
  PASSKEY_REMOVAL_TOKEN_LENGTH,
  REAUTHENTICATION_DIALOG,
  TWO_FACTOR_CODE_REQUIRED,
} from "../account-security";
import { defineCall } from "../define-call";
import { userInfoSchema } from "../entities";
import { emptyResponse, idSchema, isoDateTimeSchema, singleLine } from "../fields";
import { PASSWORD_MAX_LENGTH, SHORT_CALL_TIMEOUT_MS } from "../limits";

/**
 * Account security calls (issue 19): two-factor sign-in with an authenticator app and recovery codes,
 * and the signed-in devices. All but the sign-in's second step need a session.
 */

/**
 * A 6-digit code from the authenticator app or a recovery code; spaces and dashes are how people copy
 * them, not part of them.
 */
export const twoFactorCodeSchema = z
  .string({ error: TWO_FACTOR_CODE_REQUIRED })
  .transform((value) => value.replace(/[\s-]/g, "").toLowerCase())
  .pipe(z.string().min(1, TWO_FACTOR_CODE_REQUIRED).max(32, INVALID_TWO_FACTOR_CODE));

export const twoFactorStatusRequest = z.object({});
export const twoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left (0 when two-factor is off). */
  recoveryCodesLeft: z.number().int(),
});
export const twoFactorStatusCall = defineCall({
  path: "/v1/users/two-factor/status",
  auth: "session",
  access: { scope: "account" },
  request: twoFactorStatusRequest,
  response: twoFactorStatusResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

/** Starts (or restarts) an enrolment: a new secret, not yet in force until a first code confirms it. */
export const twoFactorStartRequest = z.object({});
export const twoFactorStartResponse = z.object({
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  otpauthUrl: z.string(),
  /** The QR code as an SVG document, drawn on our server (the secret never goes to a third party). */
  qrCodeSvg: z.string(),
});
export const twoFactorStartCall = defineCall({
  path: "/v1/users/two-factor/start",
  auth: "session",
  access: { scope: "account" },
  // Whoever enrols holds the codes from then on: a thief enrolling their own app would lock the owner out.
  requiresReauthentication: true,
  request: twoFactorStartRequest,
  response: twoFactorStartResponse,
});

export const twoFactorEnableRequest = z.object({ code: twoFactorCodeSchema });
/** The recovery codes, in clear this once; the server keeps only their hashes. */
export const twoFactorEnableResponse = z.object({ recoveryCodes: z.array(z.string()) });
export const twoFactorEnableCall = defineCall({
  path: "/v1/users/two-factor/enable",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: twoFactorEnableRequest,
  response: twoFactorEnableResponse,
});

/** Turning it off takes a current code or a recovery code: a stolen session alone cannot. */
export const twoFactorDisableRequest = z.object({ code: twoFactorCodeSchema });
export const twoFactorDisableResponse = emptyResponse;
export const twoFactorDisableCall = defineCall({
  path: "/v1/users/two-factor/disable",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: twoFactorDisableRequest,
  response: twoFactorDisableResponse,
});

/**
 * The sign-in's second step: after a sign-in answered `two-factor-required` (and set the short-lived
 * pending cookie), a code or recovery code completes it and creates the session.
 */
export const twoFactorVerifyRequest = z.object({ code: twoFactorCodeSchema });
export const twoFactorVerifyResponse = userInfoSchema;
export const twoFactorVerifyCall = defineCall({
  path: "/v1/users/two-factor/verify",
  auth: "public",
  access: { scope: "public" },
  request: twoFactorVerifyRequest,
  response: twoFactorVerifyResponse,
});

/** New recovery codes, in clear this once; the old ones stop working in the same statement. */
export const regenerateRecoveryCodesRequest = z.object({});
export const regenerateRecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export const regenerateRecoveryCodesCall = defineCall({
  path: "/v1/users/two-factor/regenerate-recovery-codes",
  auth: "session",
  access: { scope: "account" },
  request: regenerateRecoveryCodesRequest,
  response: regenerateRecoveryCodesResponse,
  requiresReauthentication: true,
});

export const twoFactorCalls = {
  status: twoFactorStatusCall,
  start: twoFactorStartCall,
  enable: twoFactorEnableCall,
  disable: twoFactorDisableCall,
  verify: twoFactorVerifyCall,
  regenerateRecoveryCodes: regenerateRecoveryCodesCall,
} as const;

export const signedInDeviceSchema = z.object({
  id: z.string(),
  /** "Chrome 126", from the user agent; null when it names no browser we know. */
  browser: z.string().nullable(),
  /** "macOS 14.5", likewise. */
  os: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: isoDateTimeSchema,
  lastSeenAt: isoDateTimeSchema,
  /** The session this request is made with. */
  current: z.boolean(),
});
export type SignedInDevice = z.infer<typeof signedInDeviceSchema>;

export const listSessionsRequest = z.object({});
export const listSessionsResponse = z.object({ sessions: z.array(signedInDeviceSchema) });
export const listSessionsCall = defineCall({
  path: "/v1/users/sessions/list",
  auth: "session",
  access: { scope: "account" },
  request: listSessionsRequest,
  response: listSessionsResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const revokeSessionRequest = z.object({ sessionId: idSchema });
export const revokeSessionResponse = emptyResponse;
export const revokeSessionCall = defineCall({
  path: "/v1/users/sessions/revoke",
  auth: "session",
  access: { scope: "account" },
  request: revokeSessionRequest,
  response: revokeSessionResponse,
});

export const sessionCalls = {
  list: listSessionsCall,
  revoke: revokeSessionCall,
} as const;

export type ListSessionsResponse = z.infer<typeof listSessionsResponse>;
export type TwoFactorStartResponse = z.infer<typeof twoFactorStartResponse>;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDateTimeSchema,
  lastUsedAt: isoDateTimeSchema.nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/**
 * WebAuthn's JSON options and responses (PublicKeyCredential*JSON) pass through as objects: the browser
 * library builds and reads them, and the server library checks every field of a response.
 */
const webauthnJsonSchema = z.record(z.string(), z.unknown());

export const listPasskeysRequest = z.object({});
export const listPasskeysResponse = z.object({ passkeys: z.array(passkeySchema) });
export const listPasskeysCall = defineCall({
  path: "/v1/users/passkeys/list",
  auth: "session",
  access: { scope: "account" },
  request: listPasskeysRequest,
  response: listPasskeysResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const passkeyRegistrationOptionsRequest = z.object({});
export const passkeyRegistrationOptionsResponse = z.object({ options: webauthnJsonSchema });
export const passkeyRegistrationOptionsCall = defineCall({
  path: "/v1/users/passkeys/registration-options",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: passkeyRegistrationOptionsRequest,
  response: passkeyRegistrationOptionsResponse,
});

export const registerPasskeyRequest = z.object({
  name: singleLine(z.string().trim().min(1, PASSKEY_NAME_REQUIRED).max(PASSKEY_NAME_MAX_LENGTH)),
  response: webauthnJsonSchema,
});
export const registerPasskeyResponse = z.object({ passkey: passkeySchema });
export const registerPasskeyCall = defineCall({
  path: "/v1/users/passkeys/register",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: registerPasskeyRequest,
  response: registerPasskeyResponse,
});

export const removePasskeyRequest = z.object({ passkeyId: idSchema });
export const removePasskeyResponse = emptyResponse;
export const removePasskeyCall = defineCall({
  path: "/v1/users/passkeys/remove",
  auth: "session",
  access: { scope: "account" },
  requiresReauthentication: true,
  request: removePasskeyRequest,
  response: removePasskeyResponse,
});

/** Options for signing in with a discoverable passkey: no user is named, the passkey says whose it is. */
export const passkeyAuthenticationOptionsRequest = z.object({});
export const passkeyAuthenticationOptionsResponse = z.object({ options: webauthnJsonSchema });
export const passkeyAuthenticationOptionsCall = defineCall({
  path: "/v1/users/passkeys/authentication-options",
  auth: "public",
  access: { scope: "public" },
  request: passkeyAuthenticationOptionsRequest,
  response: passkeyAuthenticationOptionsResponse,
});

/** A passkey counts as both factors: its sign-in creates the session at once. */
export const passkeySignInRequest = z.object({
  response: webauthnJsonSchema,
  rememberMe: z.boolean().optional().default(false),
});
export const passkeySignInResponse = userInfoSchema;
export const passkeySignInCall = defineCall({
  path: "/v1/users/passkeys/sign-in",
  auth: "public",
  access: { scope: "public" },
  request: passkeySignInRequest,
  response: passkeySignInResponse,
});

/**
 * The passkey-added mail's "it wasn't me" link: its token alone (no session: the owner may be signed out
 * everywhere) removes that passkey and ends every session of the account.
 */
export const removePasskeyWithLinkRequest = z.object({
  token: z.string().length(PASSKEY_REMOVAL_TOKEN_LENGTH),
});
export const removePasskeyWithLinkResponse = emptyResponse;
export const removePasskeyWithLinkCall = defineCall({
  path: "/v1/users/passkeys/remove-with-link",
  auth: "public",
  access: { scope: "public" },
  request: removePasskeyWithLinkRequest,
  response: removePasskeyWithLinkResponse,
});

export const passkeyCalls = {
  list: listPasskeysCall,
  registrationOptions: passkeyRegistrationOptionsCall,
  register: registerPasskeyCall,
  remove: removePasskeyCall,
  authenticationOptions: passkeyAuthenticationOptionsCall,
  signIn: passkeySignInCall,
  removeWithLink: removePasskeyWithLinkCall,
} as const;

/**
 * Re-authentication (decision 020). `options` says which proofs the account can give (with a fresh
 * passkey challenge bound to the user when it has passkeys); `reauthenticate` takes one and marks the
 * session, so sensitive calls work for REAUTHENTICATION_WINDOW_MS without asking again.
 */
export const reauthenticationOptionsRequest = z.object({});
export const reauthenticationOptionsResponse = z.object({
  password: z.boolean(),
  authenticatorCode: z.boolean(),
  /** WebAuthn request options for this user's passkeys; null when the account has none. */
  passkeyOptions: webauthnJsonSchema.nullable(),
});
export const reauthenticationOptionsCall = defineCall({
  path: "/v1/users/reauthentication/options",
  auth: "session",
  access: { scope: "account" },
  request: reauthenticationOptionsRequest,
  response: reauthenticationOptionsResponse,
});

export const reauthenticateRequest = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("password"),
    password: z
      .string({ error: REAUTHENTICATION_DIALOG.passwordRequired })
      .min(1, REAUTHENTICATION_DIALOG.passwordRequired)
      .max(PASSWORD_MAX_LENGTH),
  }),
  z.object({ method: z.literal("code"), code: twoFactorCodeSchema }),
  z.object({ method: z.literal("passkey"), response: webauthnJsonSchema }),
]);
export const reauthenticateResponse = z.object({
  /** Until when sensitive calls need no new proof. */
  reauthenticatedUntil: isoDateTimeSchema,
});
export const reauthenticateCall = defineCall({
  path: "/v1/users/reauthenticate",
  auth: "session",
  access: { scope: "account" },
  request: reauthenticateRequest,
  response: reauthenticateResponse,
});

export const reauthenticationCalls = {
  options: reauthenticationOptionsCall,
  reauthenticate: reauthenticateCall,
} as const;

export type ReauthenticationOptionsResponse = z.infer<typeof reauthenticationOptionsResponse>;

export type ListPasskeysResponse = z.infer<typeof listPasskeysResponse>;

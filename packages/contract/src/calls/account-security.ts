import { z } from "zod";
import { INVALID_TWO_FACTOR_CODE, TWO_FACTOR_CODE_REQUIRED } from "../account-security";
import { defineCall } from "../define-call";
import { userInfoSchema } from "../entities";
import { emptyResponse, idSchema, isoDateTimeSchema } from "../fields";
import { SHORT_CALL_TIMEOUT_MS } from "../limits";

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
  request: twoFactorStartRequest,
  response: twoFactorStartResponse,
});

export const twoFactorEnableRequest = z.object({ code: twoFactorCodeSchema });
/** The recovery codes, in clear this once; the server keeps only their hashes. */
export const twoFactorEnableResponse = z.object({ recoveryCodes: z.array(z.string()) });
export const twoFactorEnableCall = defineCall({
  path: "/v1/users/two-factor/enable",
  auth: "session",
  request: twoFactorEnableRequest,
  response: twoFactorEnableResponse,
});

/** Turning it off takes a current code or a recovery code: a stolen session alone cannot. */
export const twoFactorDisableRequest = z.object({ code: twoFactorCodeSchema });
export const twoFactorDisableResponse = emptyResponse;
export const twoFactorDisableCall = defineCall({
  path: "/v1/users/two-factor/disable",
  auth: "session",
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
  request: twoFactorVerifyRequest,
  response: twoFactorVerifyResponse,
});

export const twoFactorCalls = {
  status: twoFactorStatusCall,
  start: twoFactorStartCall,
  enable: twoFactorEnableCall,
  disable: twoFactorDisableCall,
  verify: twoFactorVerifyCall,
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
  request: listSessionsRequest,
  response: listSessionsResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const revokeSessionRequest = z.object({ sessionId: idSchema });
export const revokeSessionResponse = emptyResponse;
export const revokeSessionCall = defineCall({
  path: "/v1/users/sessions/revoke",
  auth: "session",
  request: revokeSessionRequest,
  response: revokeSessionResponse,
});

export const sessionCalls = {
  list: listSessionsCall,
  revoke: revokeSessionCall,
} as const;

export type ListSessionsResponse = z.infer<typeof listSessionsResponse>;
export type TwoFactorStartResponse = z.infer<typeof twoFactorStartResponse>;

import type { z } from "zod";

/**
 * Who may make a call.
 * - `public`: anybody (sign-in, sign-up, ...); the handler decides what to reveal.
 * - `session`: a signed-in console user (session cookie).
 */
export type CallAuth = "public" | "session";

/**
 * One console call: `POST <path>` with a JSON body. Server routes are registered from these
 * definitions and the web client derives one typed function per call from them, so a path, a shape or
 * a timeout is written exactly once.
 */
export interface CallDefinition<
  TRequest extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
  TAuth extends CallAuth = CallAuth,
> {
  readonly path: `/v1/${string}`;
  readonly auth: TAuth;
  readonly request: TRequest;
  readonly response: TResponse;
  /**
   * A `session` call API keys may make too (`Authorization: Bearer <key>`), limited to the key's own
   * project; it is documented in the public API's OpenAPI document.
   */
  readonly apiKey?: boolean;
  /**
   * A sensitive `session` call (decision 020): the session must hold a sign-in proof (password,
   * authenticator code or passkey) from the last REAUTHENTICATION_WINDOW_MS, else the call answers 403
   * `reauthentication-required` and changes nothing. The proof is its own call, `users/reauthenticate`,
   * so the call's payload stays as it is.
   */
  readonly requiresReauthentication?: boolean;
  /** Client-side timeout in milliseconds; the client default applies when absent. */
  readonly timeoutMs?: number;
}

export type CallRequest<C extends CallDefinition> = z.input<C["request"]>;
export type CallParsedRequest<C extends CallDefinition> = z.output<C["request"]>;
export type CallResponse<C extends CallDefinition> = z.output<C["response"]>;

export function defineCall<TRequest extends z.ZodType, TResponse extends z.ZodType, TAuth extends CallAuth>(
  definition: CallDefinition<TRequest, TResponse, TAuth>,
): CallDefinition<TRequest, TResponse, TAuth> {
  return definition;
}

/** Default client timeout for calls the spec gives no timeout. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

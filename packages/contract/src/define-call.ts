import type { z } from "zod";
import type { PERMISSION_PATHS } from "./permissions";

/**
 * Who may make a call.
 * - `public`: anybody (sign-in, sign-up, ...); the handler decides what to reveal.
 * - `session`: a signed-in console user (session cookie).
 */
export type CallAuth = "public" | "session";

/**
 * The right a call needs in the organization it names, besides membership:
 * - `member`: any member (for a project: any member who may use that project);
 * - `owner`: the organization's owner alone;
 * - a permission path of the spec's tree (`organization.billing`, `apiKeys.create`, ...).
 */
export type CallPermission = "member" | "owner" | Exclude<(typeof PERMISSION_PATHS)[number], "projects.all">;

/**
 * Whose things a call reaches and what the caller must hold there, declared on every call and
 * enforced once by the server before the handler runs (apps/server `resolveCaller`). The
 * authorization matrix test is derived from these declarations.
 * - `public`: anybody; the handler decides what to reveal.
 * - `account`: the signed-in user's own account; any id it names is looked up among the caller's own
 *   things (their sessions, passkeys, invitations addressed to their email).
 * - `organization`: the organization in the request's `organizationId`: an active membership (else 404)
 *   holding `permission` (else 403).
 * - `project`: the project in the request's `projectId`: an active project of an organization the caller
 *   belongs to (else 404), usable by the member (else 403), and `permission` (else 403).
 * - `organization-projects`: as `organization`, and every project in `projectIds` must be one of it
 *   (else 404) that the member may use (else 403).
 * - `record`: a record named by `idField` (an invoice, ...) whose organization the handler looks up;
 *   the caller must then hold `permission` there, and anything else is the record's 404.
 * - `visible-projects`: the projects in `projectIds` the caller may use; the others are left out, not refused.
 */
export type CallAccess =
  | { readonly scope: "public" }
  | { readonly scope: "account" }
  | { readonly scope: "organization"; readonly permission: CallPermission }
  | { readonly scope: "project"; readonly permission: CallPermission }
  | { readonly scope: "organization-projects"; readonly permission: CallPermission }
  | { readonly scope: "record"; readonly idField: string; readonly permission: CallPermission }
  | { readonly scope: "visible-projects" };

/** The scopes that name a tenant's organization or project (the authorization matrix covers each such call). */
export const TENANT_SCOPES = ["organization", "project", "organization-projects", "record"] as const;

/**
 * One console call: `POST <path>` with a JSON body. Server routes are registered from these
 * definitions and the web client derives one typed function per call from them, so a path, a shape or
 * a timeout is written exactly once.
 */
export interface CallDefinition<
  TRequest extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
  TAuth extends CallAuth = CallAuth,
  TAccess extends CallAccess = CallAccess,
> {
  readonly path: `/v1/${string}`;
  readonly auth: TAuth;
  /** Who may make the call on whose things (see {@link CallAccess}); required, so no call goes undeclared. */
  readonly access: TAccess;
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

export function defineCall<
  TRequest extends z.ZodType,
  TResponse extends z.ZodType,
  TAuth extends CallAuth,
  const TAccess extends CallAccess,
>(
  definition: CallDefinition<TRequest, TResponse, TAuth, TAccess>,
): CallDefinition<TRequest, TResponse, TAuth, TAccess> {
  return definition;
}

/** Default client timeout for calls the spec gives no timeout. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

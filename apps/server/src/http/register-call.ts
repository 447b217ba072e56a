import type { CallDefinition, CallParsedRequest, CallResponse } from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import type { ApiKeyPrincipal } from "../modules/api-keys/api-key-runtime.service";
import type { AuthenticatedUser } from "../modules/auth/session.service";
import { type Caller, resolveCaller, type TenantOf } from "./resolve-caller";

export interface CallContext<C extends CallDefinition> {
  body: CallParsedRequest<C>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What registering a call needs of the application: what `resolveCaller` reads to enforce access. */
export type CallGateDeps = Pick<AppDependencies, "database" | "config">;

/**
 * A session call's context: the signed-in user and what the call's declared access found (the
 * membership of the organization it names, the project it names), already checked.
 */
export type SessionCallContext<C extends CallDefinition> = CallContext<C> & {
  user: AuthenticatedUser;
} & TenantOf<C["access"]>;

type Handler<C extends CallDefinition> = C["auth"] extends "session"
  ? (context: SessionCallContext<C>) => Promise<CallResponse<C>>
  : (context: CallContext<C>) => Promise<CallResponse<C>>;

/**
 * Registers a contract call as `POST <path>`: `resolveCaller` enforces the call's declaration (who,
 * a recent sign-in proof, the tenant and the right), the body is validated with the contract's request
 * schema (a ZodError becomes a 400 `invalid-input`), and the handler's result is checked against the
 * response schema so the server can never drift from the contract.
 */
export function registerCall<C extends CallDefinition>(
  app: FastifyInstance,
  deps: CallGateDeps,
  call: C,
  handler: Handler<C>,
): void {
  if (call.apiKey === true)
    throw new Error(`${call.path} is made by API keys too: registerSessionOrApiKeyCall`);
  app.post(call.path, async (request, reply) => {
    // Calls without a payload may arrive with no body at all.
    const { caller, body } = await resolveCaller(
      deps,
      call,
      request,
      reply,
      () => call.request.parse(request.body ?? {}) as CallParsedRequest<C>,
    );
    const tenant = caller.kind === "user" ? caller : {};
    const context = { ...tenant, body, request, reply } as SessionCallContext<C>;
    const result = await (handler as (context: SessionCallContext<C>) => Promise<CallResponse<C>>)(context);
    return call.response.parse(result);
  });
}

/** Who makes a call that API keys may make too: a signed-in user (with the gate's findings), or an API key. */
export type CallPrincipal<C extends CallDefinition = CallDefinition> =
  | ({ kind: "user"; user: AuthenticatedUser } & TenantOf<C["access"]>)
  | { kind: "api-key"; key: ApiKeyPrincipal };

export interface PrincipalCallContext<C extends CallDefinition> extends CallContext<C> {
  principal: CallPrincipal<C>;
}

/**
 * Registers a session call that API keys may make as well (the contract marks it `apiKey: true`): a
 * request with `Authorization: Bearer <key>` is authenticated by the key (401 `invalid-api-key` for a
 * bad one, 429 over the key's request rate) and reaches the key's own project alone, any other by the
 * session cookie and the call's declared access.
 */
export function registerSessionOrApiKeyCall<C extends CallDefinition>(
  app: FastifyInstance,
  deps: CallGateDeps,
  call: C,
  handler: (context: PrincipalCallContext<C>) => Promise<CallResponse<C>>,
): void {
  if (call.auth !== "session" || call.apiKey !== true) {
    throw new Error(`${call.path} is not a call API keys may make`);
  }
  if (call.requiresReauthentication) {
    throw new Error(`${call.path} needs a recent sign-in proof, which API keys cannot give`);
  }
  app.post(call.path, async (request, reply) => {
    const { caller, body } = await resolveCaller(
      deps,
      call,
      request,
      reply,
      () => call.request.parse(request.body ?? {}) as CallParsedRequest<C>,
    );
    const principal = caller as Exclude<Caller<C["access"]>, { kind: "anonymous" }>;
    const result = await handler({ body, request, reply, principal });
    return call.response.parse(result);
  });
}

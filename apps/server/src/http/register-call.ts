import type { CallDefinition, CallParsedRequest, CallResponse } from "@prism/contract";
import { SIGN_IN_REQUIRED } from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import { AppError } from "../errors";
import type { ApiKeyPrincipal } from "../modules/api-keys/api-keys.service";
import {
  type AuthenticatedUser,
  authenticateSessionToken,
  requireRecentReauthentication,
} from "../modules/auth/session.service";
import { SESSION_COOKIE } from "../modules/auth/session-cookie";
import { bearerKeyOf, requireApiKey } from "./api-key-auth";
import { setRequestActor } from "./request-context";

export interface CallContext<C extends CallDefinition> {
  body: CallParsedRequest<C>;
  request: FastifyRequest;
  reply: FastifyReply;
  deps: AppDependencies;
}

export interface SessionCallContext<C extends CallDefinition> extends CallContext<C> {
  user: AuthenticatedUser;
}

type Handler<C extends CallDefinition> = C["auth"] extends "session"
  ? (context: SessionCallContext<C>) => Promise<CallResponse<C>>
  : (context: CallContext<C>) => Promise<CallResponse<C>>;

/**
 * Registers a contract call as `POST <path>`: authenticates per the call's `auth`, validates the body
 * with the contract's request schema (a ZodError becomes a 400 `invalid-input`), and checks the
 * handler's result against the response schema so the server can never drift from the contract.
 */
export function registerCall<C extends CallDefinition>(
  app: FastifyInstance,
  deps: AppDependencies,
  call: C,
  handler: Handler<C>,
): void {
  app.post(call.path, async (request, reply) => {
    let user: AuthenticatedUser | undefined;
    if (call.auth === "session") {
      user = await authenticateSessionToken(deps.database.db, request.cookies[SESSION_COOKIE]);
      if (!user) throw new AppError("unauthenticated", SIGN_IN_REQUIRED);
      setRequestActor({ kind: "user", userId: user.userId });
      // Declared on the call in the contract and enforced here, before the body is even read.
      if (call.requiresReauthentication) requireRecentReauthentication(user);
    }
    // Calls without a payload may arrive with no body at all.
    const body = call.request.parse(request.body ?? {}) as CallParsedRequest<C>;
    const context = { body, request, reply, deps, user } as SessionCallContext<C>;
    const result = await (handler as (context: SessionCallContext<C>) => Promise<CallResponse<C>>)(context);
    return call.response.parse(result);
  });
}

/** Who makes a call that API keys may make too: a signed-in user, or an API key (limited to its project). */
export type CallPrincipal =
  | { kind: "user"; user: AuthenticatedUser }
  | { kind: "api-key"; key: ApiKeyPrincipal };

export interface PrincipalCallContext<C extends CallDefinition> extends CallContext<C> {
  principal: CallPrincipal;
}

/**
 * Registers a session call that API keys may make as well (the contract marks it `apiKey: true`): a
 * request with `Authorization: Bearer <key>` is authenticated by the key (401 `invalid-api-key` for a
 * bad one, 429 over the key's request rate), any other by the session cookie. The handler must still
 * check that every id named belongs to the principal (a key's own project).
 */
export function registerSessionOrApiKeyCall<C extends CallDefinition>(
  app: FastifyInstance,
  deps: AppDependencies,
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
    let principal: CallPrincipal;
    const key = bearerKeyOf(request);
    if (key !== undefined) {
      principal = { kind: "api-key", key: await requireApiKey(deps, key, request, reply) };
    } else {
      const user = await authenticateSessionToken(deps.database.db, request.cookies[SESSION_COOKIE]);
      if (!user) throw new AppError("unauthenticated", SIGN_IN_REQUIRED);
      setRequestActor({ kind: "user", userId: user.userId });
      principal = { kind: "user", user };
    }
    const body = call.request.parse(request.body ?? {}) as CallParsedRequest<C>;
    const result = await handler({ body, request, reply, deps, principal });
    return call.response.parse(result);
  });
}

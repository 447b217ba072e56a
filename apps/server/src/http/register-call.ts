import type { CallDefinition, CallParsedRequest, CallResponse } from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import { AppError } from "../errors";
import { type AuthenticatedUser, authenticateSessionToken } from "../modules/auth/session.service";
import { SESSION_COOKIE } from "../modules/auth/session-cookie";

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

export interface RegisterCallOptions {
  /** Per-route options such as `config.rateLimit`. */
  route?: RouteShorthandOptions;
}

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
  options: RegisterCallOptions = {},
): void {
  app.post(call.path, options.route ?? {}, async (request, reply) => {
    let user: AuthenticatedUser | undefined;
    if (call.auth === "session") {
      user = await authenticateSessionToken(deps.database.db, request.cookies[SESSION_COOKIE]);
      if (!user) throw new AppError("unauthenticated", "Please sign in to continue.");
    }
    // Calls without a payload may arrive with no body at all.
    const body = call.request.parse(request.body ?? {}) as CallParsedRequest<C>;
    const context = { body, request, reply, deps, user } as SessionCallContext<C>;
    const result = await (handler as (context: SessionCallContext<C>) => Promise<CallResponse<C>>)(context);
    return call.response.parse(result);
  });
}

import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";

/** Who makes the request, once authenticated: the audit log's default actor. */
export type RequestActor = { kind: "user"; userId: string } | { kind: "api-key"; apiKeyId: string };

interface RequestContext {
  requestId: string;
  /** The client's address as Fastify resolves it (trustProxy decides whether forwarded headers count). */
  ip: string;
  actor?: RequestActor;
}

const storage = new AsyncLocalStorage<RequestContext>();
const scopes = new WeakMap<FastifyRequest, AsyncResource>();
/** Loggers Fastify made for one request: they carry `reqId` in their bindings already. */
const requestLoggers = new WeakSet<object>();

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The client address of the request whose work is running now, if any. */
export function currentRequestIp(): string | undefined {
  return storage.getStore()?.ip;
}

/** Who makes the request whose work is running now, once its session or API key is checked. */
export function currentRequestActor(): RequestActor | undefined {
  return storage.getStore()?.actor;
}

/** Records who the current request is from (called by authentication, nothing else). */
export function setRequestActor(actor: RequestActor): void {
  const store = storage.getStore();
  if (store) store.actor = actor;
}

/**
 * Pino mixin: a line logged during a request through a logger that is not the request's own (a
 * service holding `app.log`, a provider, the mailer) still carries the request's id, so every line of
 * one request can be found by the id a user quotes from an error.
 */
export function requestIdMixin(_merge: object, _level: number, logger: object): Record<string, string> {
  const requestId = currentRequestId();
  if (requestId === undefined || requestLoggers.has(logger)) return {};
  return { reqId: requestId };
}

/** Fastify's child logger factory, remembering which loggers are per request. */
export function createRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
): FastifyBaseLogger {
  const child = logger.child(bindings, options);
  requestLoggers.add(child);
  return child;
}

/**
 * Runs each request's hooks and handler inside an async context holding its id. Body parsing
 * resumes from the socket's own events, outside that context, so it is entered again before
 * validation (the approach of @fastify/request-context).
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    storage.run({ requestId: request.id, ip: request.ip }, () => {
      const scope = new AsyncResource("prism-request");
      scopes.set(request, scope);
      scope.runInAsyncScope(done, request.raw);
    });
  });
  app.addHook("preValidation", (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) scope.runInAsyncScope(done, request.raw);
    else done();
  });
}

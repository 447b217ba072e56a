import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Route config of a route that reads its body itself, later (a feature call's streamed upload). */
export interface DeferredBodyConfig {
  deferredBody?: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig extends DeferredBodyConfig {}
}

const CONTINUE_SENT = Symbol("continueSent");
type ContinuableRequest = IncomingMessage & { [CONTINUE_SENT]?: boolean };

/**
 * Honours `Expect: 100-continue` (RFC 9110 §10.1.1), which curl sends with any upload over 1 MB: the
 * client waits for `100 Continue` before sending the body, so a call refused from its headers costs
 * no upload at all. Node answers 100 at once unless the server listens for `checkContinue`; here it
 * does, and the 100 goes out only when the body is about to be read: before Fastify parses it, or,
 * on routes marked `deferredBody`, when the handler starts reading (`continueUpload`). A refusal
 * before that never asks for the body, and Node closes the connection after it (the client may or may
 * not send the body then, so the connection cannot be reused), which is what curl does too.
 */
export function registerExpectContinue(app: FastifyInstance): void {
  app.server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    app.server.emit("request", request, response);
  });
  app.addHook("preParsing", async (request, reply, payload) => {
    if (!request.routeOptions.config.deferredBody) continueUpload(request, reply);
    return payload;
  });
}

/** Sends `100 Continue` if the client waits for it and it has not been sent yet. */
export function continueUpload(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw as ContinuableRequest;
  if (!expectsContinue(raw) || raw[CONTINUE_SENT] || reply.raw.headersSent) return;
  raw[CONTINUE_SENT] = true;
  reply.raw.writeContinue();
}

function expectsContinue(raw: IncomingMessage): boolean {
  return (raw.headers.expect ?? "").toLowerCase() === "100-continue";
}

import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((candidate) => candidate.trim().replace(/^W\//, ""))
    .some((candidate) => candidate === etag || candidate === "*");
}

/**
 * A response marked `no-cache` asks the browser to revalidate before every use. This gives such
 * responses a validator (a strong ETag of the body) and answers a matching If-None-Match with 304
 * and no body. It runs after the route's handler, so the caller's access is checked on every
 * revalidation: once access is gone the answer is the handler's 404, never a 304.
 */
export function registerRevalidation(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && request.method !== "HEAD") return payload;
    if (reply.statusCode !== 200 || reply.hasHeader("etag")) return payload;
    if (!/(^|[\s,])no-cache($|[\s,])/.test(String(reply.getHeader("cache-control") ?? ""))) return payload;
    if (!Buffer.isBuffer(payload) && typeof payload !== "string") return payload;
    const etag = `"${createHash("sha256").update(payload).digest("base64url")}"`;
    reply.header("etag", etag);
    if (!matches(request.headers["if-none-match"], etag)) return payload;
    reply.code(304);
    return "";
  });
}

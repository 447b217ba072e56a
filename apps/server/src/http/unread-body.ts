import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";

export interface UnreadBodyLimits {
  /** The most the request may still send to be read and thrown away: the largest legitimate body. */
  maxBytes: number;
  /** How long the rest of the body may take to arrive before the connection is cut. */
  maxMs: number;
}

/**
 * What happens to the rest of a body the server answered before reading (an early refusal: 401, 402,
 * 403, 429 before the upload). Closing the connection at once looks cheaper, but the client is still
 * writing: Node's `fetch` fails with EPIPE, `requests` and curl with a reset, and the JSON answer is
 * lost (issue 30: 10 of 10 with a bad key). So the rest is read and thrown away, never parsed or stored,
 * up to `maxBytes` and within `maxMs`; the client reads the answer whenever it looks and may reuse the
 * connection. A body that declares more than `maxBytes`, or goes on past it or past `maxMs`, gets its
 * connection closed: no legitimate call sends that much, and reading it would be the work the early
 * refusal is there to avoid.
 *
 * Call it from `onSend`, before the answer leaves: reading starts here, so Node never falls back to
 * draining the body without a bound.
 */
export function discardUnreadBody(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: UnreadBodyLimits,
): void {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  const declared = Number(raw.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    reply.header("connection", "close");
    return;
  }
  discardUpTo(raw, limits);
}

function discardUpTo(raw: IncomingMessage, limits: UnreadBodyLimits): void {
  // A multipart parser may still be attached from a refusal mid-body; nothing reads its parts now.
  raw.unpipe();
  let discarded = 0;
  const cut = () => raw.socket?.destroy();
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  const stop = () => clearTimeout(timer);
  raw.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) cut();
  });
  raw.once("end", stop);
  raw.once("close", stop);
  raw.once("error", stop);
  raw.resume();
}

import type { FastifyRequest } from "fastify";

/**
 * Query strings carry credentials on the few GET routes a browser opens directly (an invoice link's
 * one-time token, an OAuth callback's code and state, an invitation id). The request log keeps the
 * parameter names and drops every value, so a log reader never holds a working link.
 */
export function redactQuery(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const names = url
    .slice(start + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => `${pair.split("=")[0]}=[redacted]`);
  return `${url.slice(0, start)}?${names.join("&")}`;
}

/** Fastify's request serializer with the query values redacted. */
export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactQuery(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

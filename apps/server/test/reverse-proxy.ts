import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy on loopback as deployments put in front of the server (nginx, a cloud load
 * balancer): it forwards each request to `upstream`, appends the client's address to
 * X-Forwarded-For, and gives up on an upstream that has not started answering within
 * `readTimeoutMs`, answering the client an HTML 504 of its own as nginx does (proxy_read_timeout).
 */
export async function startReverseProxy(upstream: string, options: { readTimeoutMs: number }) {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const forwardedFor = [incoming.headers["x-forwarded-for"], incoming.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    const upstreamRequest = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host, "x-forwarded-for": forwardedFor },
      },
      (answer) => {
        clearTimeout(timer);
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    const timer = setTimeout(() => {
      upstreamRequest.destroy();
      if (!outgoing.headersSent) {
        outgoing.writeHead(504, { "content-type": "text/html" });
        outgoing.end("<html><body><h1>504 Gateway Time-out</h1></body></html>");
      }
    }, options.readTimeoutMs);
    upstreamRequest.on("error", () => {
      clearTimeout(timer);
      if (!outgoing.headersSent) {
        outgoing.writeHead(502, { "content-type": "text/html" });
        outgoing.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      }
    });
    incoming.pipe(upstreamRequest);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

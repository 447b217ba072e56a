import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body's bytes, for binary uploads (multipart files). */
  raw: Buffer;
}

export interface LocalServer {
  url: string;
  requests: LocalRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that plays a third party (Google, GitHub, reCAPTCHA, Stripe...) in tests:
 * the product's real adapter code talks to it over HTTP exactly as it would to the real service.
 */
export async function startLocalServer(
  handle: (request: LocalRequest, response: ServerResponse) => void | Promise<void>,
): Promise<LocalServer> {
  const requests: LocalServer["requests"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const entry = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: raw.toString("utf8"),
        raw,
      };
      requests.push(entry);
      Promise.resolve(handle(entry, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

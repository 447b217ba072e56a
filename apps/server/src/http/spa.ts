import { resolve } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { hasBuiltWeb } from "../paths";
import { sendError } from "./error-handler";

/** Paths owned by the server; everything else is a client-side route of the SPA. */
const SERVER_PREFIXES = ["/v1/", "/v1", "/healthz", "/dev/", "/docs/"];

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/**
 * Serves the built SPA: hashed files under /assets are cached for a year, everything else (index.html
 * above all) is revalidated on every load so a deploy is picked up at once. Unknown non-API GETs get
 * index.html (history fallback); unknown API paths get a JSON 404 in the contract's error shape.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const hasWeb = hasBuiltWeb(webDistDir);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      cacheControl: false,
      index: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const isHashedAsset = filePath.startsWith(resolve(webDistDir, "assets"));
        res.header("cache-control", isHashedAsset ? IMMUTABLE : REVALIDATE);
      },
    });
  } else {
    app.log.warn({ webDistDir }, "the web app is not built; run `npm run build` to serve the console");
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const isServerPath = SERVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix));
    const acceptsHtml = request.method === "GET" || request.method === "HEAD";
    if (!isServerPath && acceptsHtml && hasWeb && !path.startsWith("/assets/")) {
      return reply
        .header("cache-control", REVALIDATE)
        .type("text/html; charset=utf-8")
        .sendFile("index.html");
    }
    return sendError(reply, 404, {
      error: "route-not-found",
      message: `No such endpoint: ${request.method} ${path}`,
    });
  });
}

import { resolve } from "node:path";
import fastifyStatic from "@fastify/static";
import { methodNotAllowedText } from "@prism/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import { hasBuiltWeb } from "../paths";
import { sendError } from "./error-handler";
import type { RouteMethods } from "./route-methods";

/** Paths owned by the server; everything else is a client-side route of the SPA. */
const SERVER_PREFIXES = ["/v1/", "/v1", "/healthz", "/dev/", "/docs/"];
/**
 * Paths that are clearly API calls even though no route serves them (another version, a framework's
 * habit): they answer a JSON 404, never the console's page with a 200 a client would take for success.
 */
const API_LOOKING_PATH = /^\/(api|v\d+)(\/|$)/i;

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

function sendIndex(reply: FastifyReply) {
  return reply.header("cache-control", REVALIDATE).type("text/html; charset=utf-8").sendFile("index.html");
}

/**
 * Serves the built SPA: hashed files under /assets are cached for a year, everything else (index.html
 * above all) is revalidated on every load so a deploy is picked up at once. Unknown non-API GETs get
 * index.html (history fallback); unknown API paths get a JSON 404 in the contract's error shape.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDistDir: string,
  routeMethods: RouteMethods,
): Promise<void> {
  const hasWeb = hasBuiltWeb(webDistDir);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      // One wildcard route that looks files up when asked, not a route per built file (about 750 with
      // their brotli and gzip copies): registering those was a tenth of the server's start-up (issue 16).
      // A path with no file falls through to the not-found handler below.
      wildcard: true,
      cacheControl: false,
      index: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const isHashedAsset = filePath.startsWith(resolve(webDistDir, "assets"));
        res.header("cache-control", isHashedAsset ? IMMUTABLE : REVALIDATE);
      },
    });
    // The root is a directory to the wildcard route; it is the console's first page.
    app.get("/", async (_request, reply) => sendIndex(reply));
  } else {
    app.log.warn({ webDistDir }, "the web app is not built; run `npm run build` to serve the console");
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = routeMethods.allowedFor(path);
    // A route of this very method that sent its request here on purpose (the dev mailbox hides itself
    // from other machines with callNotFound) gets the 404 it asked for, not a 405.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header("allow", allowed.join(", "));
      return sendError(reply, 405, {
        error: "method-not-allowed",
        message: methodNotAllowedText(request.method, path, allowed),
      });
    }
    const isServerPath =
      SERVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix)) ||
      API_LOOKING_PATH.test(path) ||
      // A caller sending an API key is a program, not a browser following a link.
      request.headers.authorization !== undefined;
    const acceptsHtml = request.method === "GET" || request.method === "HEAD";
    if (!isServerPath && acceptsHtml && hasWeb && !path.startsWith("/assets/")) {
      return sendIndex(reply);
    }
    return sendError(reply, 404, {
      error: "route-not-found",
      message: `No such endpoint: ${request.method} ${path}`,
    });
  });
}

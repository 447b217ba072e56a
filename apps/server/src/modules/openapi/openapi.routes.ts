import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CONSOLE_HOME_PATH, DOCS_BACK_TO_CONSOLE, PRODUCT_NAME } from "@prism/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { sendError } from "../../http/error-handler";
import { SERVER_ROOT } from "../../paths";
import type { ProviderRegistry } from "../../providers/inference/registry";
import { type FeatureAvailability, withAvailability } from "./availability";
import { buildOpenApiDocument } from "./document";
import type { OpenApiOptions } from "./types";

/**
 * `GET /v1/openapi.json` (the API description) and `GET /docs`, an API reference page that renders it
 * with Scalar (`@scalar/fastify-api-reference`, which bundles the browser code, so nothing comes from a
 * CDN). The page is ours rather than the plugin's because the plugin's page starts Scalar from an inline
 * script, which the Content-Security-Policy (scripts from this origin only) refuses; ours loads the
 * plugin's bundle and a one-call start-up file, both from this origin.
 */

/** Where the plugin serves its bundle (`<prefix>/js/scalar.js`); its own page there is not used. */
const SCALAR_PREFIX = "/docs/scalar";
export const SCALAR_SCRIPT_PATH = `${SCALAR_PREFIX}/js/scalar.js`;
export const REFERENCE_SCRIPT_PATH = "/docs/assets/reference.js";
const REFERENCE_SCRIPT_FILE = resolve(SERVER_ROOT, "src/modules/openapi/assets/reference.js");

/** Documents kept per base URL. */
const MAX_CACHED_BASE_URLS = 4;

export interface OpenApiRoutesOptions extends Omit<OpenApiOptions, "baseUrl"> {
  /** The deployment's public origin (PUBLIC_URL); without it, the origin the document is asked on. */
  publicUrl?: string | undefined;
  /** The deployment's providers: the served document marks the features they cannot run. */
  registry?: Pick<ProviderRegistry, "statusOfAll">;
}

async function availabilityOf(
  registry: Pick<ProviderRegistry, "statusOfAll">,
): Promise<Map<string, FeatureAvailability>> {
  const statuses = await registry.statusOfAll();
  return new Map(
    [...statuses].map(([id, { provider, availability }]) => [
      id,
      {
        available: availability.available,
        needsModelServer: provider === undefined,
        reason: availability.available ? null : (availability.reason ?? null),
      },
    ]),
  );
}

export function docsPageHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${PRODUCT_NAME} API reference</title>
    <meta name="description" content="Reference of the ${PRODUCT_NAME} image and speech API: endpoints, fields, prices and errors." />
    <link rel="icon" href="data:," />
  </head>
  <body style="margin:0">
    <header style="display:flex;align-items:center;gap:12px;padding:10px 16px;border-bottom:1px solid #e6e6ef;background:#ffffff;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:14px">
      <a href="${CONSOLE_HOME_PATH}" style="color:#4c3bcf;font-weight:600;text-decoration:none">&larr; ${DOCS_BACK_TO_CONSOLE}</a>
      <span style="color:#6b7085">${PRODUCT_NAME} API reference</span>
    </header>
    <div id="reference"></div>
    <noscript><p>This page needs JavaScript. The raw description is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
    <script src="${SCALAR_SCRIPT_PATH}"></script>
    <script src="${REFERENCE_SCRIPT_PATH}"></script>
  </body>
</html>
`;
}

export function registerOpenApiRoutes(app: FastifyInstance, options: OpenApiRoutesOptions = {}): void {
  // Built with the first request rather than at start-up, where it was a tenth of the server's own
  // start-up work (issue 16); the catalog it describes is fixed for the life of the process. One per
  // base URL (PUBLIC_URL, else the origin asked), at most a few: a forged Host gets no cached copy.
  const built = new Map<string, { document: ReturnType<typeof buildOpenApiDocument>; body: string }>();
  const reference = (baseUrl: string) => {
    let entry = built.get(baseUrl);
    if (!entry) {
      const document = buildOpenApiDocument({ ...options, baseUrl });
      entry = { document, body: JSON.stringify(document) };
      if (built.size < MAX_CACHED_BASE_URLS) built.set(baseUrl, entry);
    }
    return entry;
  };
  let referenceScript: Buffer | undefined;
  try {
    referenceScript = readFileSync(REFERENCE_SCRIPT_FILE);
  } catch (error) {
    app.log.warn({ err: error }, "the API reference's start-up script is missing");
  }
  const html = docsPageHtml();

  const { registry } = options;
  app.get("/v1/openapi.json", async (request, reply) => {
    const { document, body } = reference(options.publicUrl ?? `${request.protocol}://${request.host}`);
    let answer = body;
    if (registry) {
      try {
        answer = JSON.stringify(withAvailability(document, await availabilityOf(registry)));
      } catch (error) {
        // The reference stays readable without the badges when a provider cannot be asked.
        request.log.warn({ err: error }, "feature availability unknown for the API reference");
      }
    }
    return reply.header("cache-control", "no-cache").type("application/json; charset=utf-8").send(answer);
  });

  app.get("/docs", async (_request, reply) =>
    reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(html),
  );

  app.get(REFERENCE_SCRIPT_PATH, async (_request, reply) => {
    if (!referenceScript) {
      return sendError(reply, 404, {
        error: "route-not-found",
        message: `No such endpoint: GET ${REFERENCE_SCRIPT_PATH}`,
      });
    }
    return reply
      .header("cache-control", "no-cache")
      .type("text/javascript; charset=utf-8")
      .send(referenceScript);
  });

  // Scalar's browser bundle is a 4 MB string inside @scalar/fastify-api-reference, and importing the
  // plugin costs a tenth of the server's start-up (issue 16). So the plugin is loaded with the first
  // request for the bundle, on a server of its own that nobody connects to, and asked for the bundle
  // once; this server keeps the answer. The plugin's other pages (which start Scalar from an inline
  // script the CSP refuses) answer with /docs.
  let scalarBundle: Promise<{ body: Buffer; contentType: string }> | undefined;
  const loadScalarBundle = () => {
    scalarBundle ??= (async () => {
      const { default: scalarApiReference } = await import("@scalar/fastify-api-reference");
      const holder = Fastify({ logger: false });
      await holder.register(scalarApiReference, {
        routePrefix: SCALAR_PREFIX,
        configuration: { url: "/v1/openapi.json" },
      });
      const answer = await holder.inject({ method: "GET", url: SCALAR_SCRIPT_PATH });
      await holder.close();
      if (answer.statusCode !== 200) throw new Error(`Scalar's bundle answered ${answer.statusCode}`);
      return {
        body: answer.rawPayload,
        contentType: String(answer.headers["content-type"] ?? "text/javascript; charset=utf-8"),
      };
    })();
    scalarBundle.catch(() => {
      scalarBundle = undefined;
    });
    return scalarBundle;
  };
  app.get(SCALAR_SCRIPT_PATH, async (_request, reply) => {
    const { body, contentType } = await loadScalarBundle();
    return reply.header("cache-control", "no-cache").type(contentType).send(body);
  });
  app.get(`${SCALAR_PREFIX}/*`, async (_request, reply) => reply.redirect("/docs", 302));
  app.get(SCALAR_PREFIX, async (_request, reply) => reply.redirect("/docs", 302));
}

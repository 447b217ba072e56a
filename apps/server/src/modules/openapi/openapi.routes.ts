import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { sendError } from "../../http/error-handler";
import { SERVER_ROOT } from "../../paths";
import type { ProviderRegistry } from "../../providers/inference/registry";
import {
  buildOpenApiDocument,
  type FeatureAvailability,
  type OpenApiOptions,
  withAvailability,
} from "./openapi";

/**
 * `GET /v1/openapi.json` (the API description) and `GET /docs`, an API reference page that renders it.
 * The page's script and styles are separate files under `/docs/assets/` because the CSP allows only
 * our own scripts. The assets are read from the source tree, which the server needs at run time anyway
 * (migrations, the web build), so the production bundle serves them too.
 */

export const DOCS_ASSETS_DIR = resolve(SERVER_ROOT, "src/modules/openapi/assets");

const ASSETS: Record<string, string> = {
  "docs.css": "text/css; charset=utf-8",
  "docs.js": "text/javascript; charset=utf-8",
};

export interface OpenApiRoutesOptions extends OpenApiOptions {
  /** Where docs.css and docs.js live (tests and unusual layouts). */
  assetsDir?: string;
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
    <title>Prism API reference</title>
    <meta name="description" content="Reference of the Prism image and speech API: endpoints, fields, prices and errors." />
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/docs/assets/docs.css" />
    <script type="module" src="/docs/assets/docs.js"></script>
  </head>
  <body>
    <div class="layout">
      <nav class="sidebar" aria-label="Endpoints">
        <a class="brand" href="#top">Prism <span>API</span></a>
        <input class="filter" type="search" placeholder="Filter endpoints" aria-label="Filter endpoints" />
        <div class="nav-groups"></div>
      </nav>
      <main class="content" id="top">
        <p class="loading">Loading the API reference…</p>
        <noscript><p>This page needs JavaScript. The raw description is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
      </main>
    </div>
  </body>
</html>
`;
}

export function registerOpenApiRoutes(app: FastifyInstance, options: OpenApiRoutesOptions = {}): void {
  // Built with the first request rather than at start-up, where it was a tenth of the server's own
  // start-up work (issue 16); the catalog it describes is fixed for the life of the process.
  let built: { document: ReturnType<typeof buildOpenApiDocument>; body: string } | undefined;
  const reference = () => {
    if (!built) {
      const document = buildOpenApiDocument(options);
      built = { document, body: JSON.stringify(document) };
    }
    return built;
  };
  const assetsDir = options.assetsDir ?? DOCS_ASSETS_DIR;
  const assets = new Map<string, { type: string; content: Buffer }>();
  for (const [name, type] of Object.entries(ASSETS)) {
    try {
      assets.set(name, { type, content: readFileSync(resolve(assetsDir, name)) });
    } catch (error) {
      app.log.warn({ err: error, assetsDir }, `API reference asset ${name} is missing`);
    }
  }
  const html = docsPageHtml();

  const { registry } = options;
  app.get("/v1/openapi.json", async (request, reply) => {
    const { document, body } = reference();
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

  app.get<{ Params: { name: string } }>("/docs/assets/:name", async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) {
      return sendError(reply, 404, {
        error: "route-not-found",
        message: `No such endpoint: GET /docs/assets/${request.params.name}`,
      });
    }
    return reply.header("cache-control", "no-cache").type(asset.type).send(asset.content);
  });
}

import { createHash, timingSafeEqual } from "node:crypto";
import { METRICS_TOKEN_REQUIRED } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Compared as digests, so neither the token's length nor its prefix leaks through the timing. */
function holdsToken(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * Prometheus metrics: every request's duration by route pattern (never the raw URL, whose ids would
 * make a series per call), and GET /metrics in the text format. Open with the embedded defaults;
 * behind `Authorization: Bearer <METRICS_TOKEN>` when a token is set, and never open in production.
 */
/** What the metrics routes use of the application's dependencies. */
export type MetricsRouteDeps = Pick<AppDependencies, "config" | "metrics">;

export function registerMetricsRoutes(app: FastifyInstance, deps: MetricsRouteDeps): void {
  const { metrics, config } = deps;

  app.addHook("onResponse", async (request, reply) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  app.get("/metrics", async (request, reply) => {
    const token = config.metricsToken;
    if ((token && !holdsToken(request.headers.authorization, token)) || (!token && config.isProduction)) {
      throw new AppError("unauthenticated", METRICS_TOKEN_REQUIRED, {
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      });
    }
    try {
      await metrics.refresh();
    } catch (error) {
      // The process's own metrics are still worth serving when the database is not answering.
      request.log.warn({ err: error }, "metrics: the job queue and pool gauges could not be read");
    }
    return reply
      .header("cache-control", "no-store")
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
}

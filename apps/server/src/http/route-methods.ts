import type { FastifyInstance, HTTPMethods } from "fastify";
import FindMyWay from "find-my-way";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Which methods a path answers to, for the 405 of a method it does not (RFC 9110 §15.5.6). */
export interface RouteMethods {
  /** The methods some route serves `path` with, in a stable order; empty when no route matches it. */
  allowedFor(path: string): string[];
}

/**
 * Records every route as it is registered, in a router of the kind Fastify itself routes with
 * (find-my-way, with the same trailing-slash rule), so a request that found no route can be told
 * whether its path exists with other methods. Wildcard routes (the web app's static files) are left
 * out: they would make every path "exist". Register before the routes it should know.
 */
export function recordRouteMethods(app: FastifyInstance): RouteMethods {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook("onRoute", (route) => {
    if (route.url.includes("*")) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    for (const method of methods) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      // The same path may be declared twice for a method (constraints); one entry says it exists.
      if (router.hasRoute(method as (typeof METHODS)[number], route.url)) continue;
      router.on(method as (typeof METHODS)[number], route.url, () => undefined);
    }
  });
  return {
    allowedFor: (path) => {
      const allowed: string[] = METHODS.filter((method) => router.find(method, path) !== null);
      // Fastify answers HEAD wherever it answers GET.
      if (allowed.includes("GET") && !allowed.includes("HEAD"))
        allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
      return allowed;
    },
  };
}

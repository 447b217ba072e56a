import type { CallAuth, CallDefinition } from "./define-call";

/**
 * What a client needs to send a console call, without its zod schemas: the path, who may make it and
 * the timeout. The console's sign-in page must not download the schemas of every screen (issue 16), so
 * the web client is bound to `callRoutes` (generated from `calls`, see call-routes.generated.ts) and
 * typed by `calls`. The server checks every answer against the response schema before it is sent.
 */
export interface CallRoute {
  readonly path: `/v1/${string}`;
  readonly auth: CallAuth;
  readonly timeoutMs?: number;
}

/** The route tree of a call registry: the same nesting, each definition reduced to its route. */
export type CallRoutesOf<T> = {
  readonly [K in keyof T]: T[K] extends CallDefinition ? CallRoute : CallRoutesOf<T[K]>;
};

function isCallDefinition(value: unknown): value is CallDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { path?: unknown }).path === "string" &&
    "request" in value &&
    "response" in value
  );
}

/** Reduces a call registry to its routes (what the generator writes and its test compares). */
export function routesOf<T extends object>(registry: T): CallRoutesOf<T> {
  const routes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(registry)) {
    if (isCallDefinition(value)) {
      routes[key] = {
        path: value.path,
        auth: value.auth,
        ...(value.timeoutMs === undefined ? {} : { timeoutMs: value.timeoutMs }),
      };
    } else if (typeof value === "object" && value !== null) {
      routes[key] = routesOf(value);
    }
  }
  return routes as CallRoutesOf<T>;
}

export const CALL_ROUTES_HEADER = `// Generated from \`calls\` by \`npm run generate -w @prism/contract\`; do not edit.
// The routes of every console call without their zod schemas (see call-routes.ts). call-routes.test.ts
// fails when this file is stale.
`;

/** The generated module's source for a registry's routes. */
export function callRoutesSource(routes: object): string {
  return `${CALL_ROUTES_HEADER}import type { CallRoutesOf } from "./call-routes";
import type { calls } from "./calls";

export const callRoutes = ${JSON.stringify(routes, null, 2)} as const satisfies CallRoutesOf<typeof calls>;
`;
}

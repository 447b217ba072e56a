import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { getRequestDetail } from "./request-detail.service";
import { listRequests } from "./request-log.service";

/** What these routes use of the application's dependencies. */
export type RequestLogRouteDeps = Pick<AppDependencies, "config" | "database">;

export function registerRequestLogRoutes(app: FastifyInstance, deps: RequestLogRouteDeps): void {
  const db = deps.database.db;

  // The organization and every project named are the caller's (the call's declared access).
  registerCall(app, deps, calls.requests.list, ({ body }) => listRequests(db, body));

  registerCall(app, deps, calls.requests.get, ({ membership, body }) =>
    getRequestDetail(db, membership, body),
  );
}

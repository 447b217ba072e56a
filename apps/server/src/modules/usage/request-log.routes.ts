import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { listRequests } from "./request-log.service";

export function registerRequestLogRoutes(app: FastifyInstance, deps: AppDependencies): void {
  registerCall(app, deps, calls.requests.list, ({ user, body }) =>
    listRequests(deps.database.db, user.userId, body),
  );
}

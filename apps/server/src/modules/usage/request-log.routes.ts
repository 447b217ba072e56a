import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { requireMembership, requireProjectsOfMembership } from "../access/access.service";
import { getRequestDetail } from "./request-detail.service";
import { listRequests } from "./request-log.service";

export function registerRequestLogRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.requests.list, async ({ user, body }) => {
    requireProjectsOfMembership(
      await requireMembership(db, user.userId, body.organizationId),
      body.projectIds,
    );
    return listRequests(db, body);
  });

  registerCall(app, deps, calls.requests.get, ({ user, body }) => getRequestDetail(db, user.userId, body));
}

import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { getAlerts, updateAlerts } from "./alerts.service";

/** The Payments page's alerts; the service checks the caller's right (decision 014). */
export function registerAlertRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.alerts.get, ({ user, body }) =>
    getAlerts(db, user.userId, body.organizationId),
  );

  registerCall(app, deps, calls.alerts.update, async ({ user, body }) => {
    await updateAlerts(db, user.userId, body.organizationId, body);
    return {};
  });
}

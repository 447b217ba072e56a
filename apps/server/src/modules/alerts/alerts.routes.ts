import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { getAlerts, updateAlerts } from "./alerts.service";

/** What these routes use of the application's dependencies. */
export type AlertsRouteDeps = Pick<AppDependencies, "config" | "database">;

/** The Payments page's alerts: each call declares `organization.payments`, which the gate checks. */
export function registerAlertRoutes(app: FastifyInstance, deps: AlertsRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.alerts.get, ({ body }) => getAlerts(db, body.organizationId));

  registerCall(app, deps, calls.alerts.update, async ({ body }) => {
    await updateAlerts(db, body.organizationId, body);
    return {};
  });
}

import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { requireMembership, requirePermission } from "../access/access.service";
import { getAlerts, updateAlerts } from "./alerts.service";

/** The Payments page's alerts: the same right as the rest of that page. */
export function registerAlertRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;
  const requirePayments = async (userId: string, organizationId: string) => {
    requirePermission(await requireMembership(db, userId, organizationId), "organization.payments");
  };

  registerCall(app, deps, calls.alerts.get, async ({ user, body }) => {
    await requirePayments(user.userId, body.organizationId);
    return getAlerts(db, body.organizationId);
  });

  registerCall(app, deps, calls.alerts.update, async ({ user, body }) => {
    await requirePayments(user.userId, body.organizationId);
    await db.transaction((tx) => updateAlerts(tx, body.organizationId, body));
    return {};
  });
}

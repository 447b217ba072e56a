import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import {
  archiveOrganization,
  createOrganization,
  getFirstSteps,
  renameOrganization,
  transferOwnership,
  updateBillingDetails,
  updateOrganizationSecurity,
} from "./organizations.service";

/** What these routes use of the application's dependencies. */
export type OrganizationsRouteDeps = Pick<AppDependencies, "config" | "database">;

export function registerOrganizationRoutes(app: FastifyInstance, deps: OrganizationsRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.organizations.firstSteps, ({ body }) =>
    getFirstSteps(db, body.organizationId),
  );

  registerCall(app, deps, calls.organizations.create, ({ user, body }) =>
    createOrganization(db, user.userId, body.name),
  );

  registerCall(app, deps, calls.organizations.updateName, async ({ membership, body }) => {
    await renameOrganization(db, membership, body.name);
    return {};
  });

  registerCall(app, deps, calls.organizations.delete, async ({ user, membership }) => {
    await archiveOrganization(db, user.userId, membership);
    return {};
  });

  registerCall(app, deps, calls.organizations.updateBilling, async ({ body }) => {
    await updateBillingDetails(db, body);
    return {};
  });

  registerCall(app, deps, calls.organizations.updateSecurity, async ({ user, body }) => {
    await updateOrganizationSecurity(db, user.userId, body);
    return {};
  });

  registerCall(app, deps, calls.organizations.changeOwner, ({ user, membership, body }) =>
    transferOwnership(db, user.userId, membership, body.newOwnerUserId),
  );
}

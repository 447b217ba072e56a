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

export function registerOrganizationRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.organizations.firstSteps, ({ user, body }) =>
    getFirstSteps(db, user.userId, body.organizationId),
  );

  registerCall(app, deps, calls.organizations.create, ({ user, body }) =>
    createOrganization(db, user.userId, body.name),
  );

  registerCall(app, deps, calls.organizations.updateName, async ({ user, body }) => {
    await renameOrganization(db, user.userId, body.organizationId, body.name);
    return {};
  });

  registerCall(app, deps, calls.organizations.delete, async ({ user, body }) => {
    await archiveOrganization(db, user.userId, body.organizationId);
    return {};
  });

  registerCall(app, deps, calls.organizations.updateBilling, async ({ user, body }) => {
    await updateBillingDetails(db, user.userId, body);
    return {};
  });

  registerCall(app, deps, calls.organizations.updateSecurity, async ({ user, body }) => {
    await updateOrganizationSecurity(db, user.userId, body);
    return {};
  });

  registerCall(app, deps, calls.organizations.changeOwner, ({ user, body }) =>
    transferOwnership(db, user.userId, body.organizationId, body.newOwnerUserId),
  );
}

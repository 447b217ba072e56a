import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { requireMembership, requireOwner } from "../access/access.service";
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  sendTestEvent,
  updateEndpoint,
} from "./webhooks.service";

/** Webhook endpoints send the organization's calls and payments out of it: only its owner manages them. */
export function registerWebhookRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;
  const requireWebhooks = async (userId: string, organizationId: string) => {
    requireOwner(await requireMembership(db, userId, organizationId));
  };

  registerCall(app, deps, calls.webhooks.list, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    return { endpoints: await listEndpoints(db, body.organizationId) };
  });

  registerCall(app, deps, calls.webhooks.insert, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    return createEndpoint(db, body.organizationId, { url: body.url, events: body.events });
  });

  registerCall(app, deps, calls.webhooks.update, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    await updateEndpoint(db, body.organizationId, body.endpointId, body);
    return {};
  });

  registerCall(app, deps, calls.webhooks.delete, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    await deleteEndpoint(db, body.organizationId, body.endpointId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.deliveries, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    return { deliveries: await listDeliveries(db, body.organizationId, body.endpointId) };
  });

  registerCall(app, deps, calls.webhooks.resend, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    await resendDelivery(db, body.organizationId, body.endpointId, body.deliveryId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.sendTest, async ({ user, body }) => {
    await requireWebhooks(user.userId, body.organizationId);
    await sendTestEvent(db, body.organizationId, body.endpointId);
    return {};
  });
}

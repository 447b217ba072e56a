import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import {
  createEndpoint,
  deleteEndpoint,
  getCallWebhookSecret,
  listCallDeliveries,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateCallWebhookSecret,
  sendTestEvent,
  updateEndpoint,
} from "./webhooks.service";

/** The Webhooks page; the service checks that the caller owns the organization (decision 014). */
export function registerWebhookRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.webhooks.list, async ({ user, body }) => {
    return { endpoints: await listEndpoints(db, user.userId, body.organizationId) };
  });

  registerCall(app, deps, calls.webhooks.insert, ({ user, body }) =>
    createEndpoint(db, user.userId, body.organizationId, { url: body.url, events: body.events }),
  );

  registerCall(app, deps, calls.webhooks.update, async ({ user, body }) => {
    await updateEndpoint(db, user.userId, body.organizationId, body.endpointId, body);
    return {};
  });

  registerCall(app, deps, calls.webhooks.delete, async ({ user, body }) => {
    await deleteEndpoint(db, user.userId, body.organizationId, body.endpointId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.deliveries, async ({ user, body }) => {
    return { deliveries: await listDeliveries(db, user.userId, body.organizationId, body.endpointId) };
  });

  registerCall(app, deps, calls.webhooks.resend, async ({ user, body }) => {
    await resendDelivery(db, user.userId, body.organizationId, body.endpointId, body.deliveryId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.callSecret, ({ user, body }) =>
    getCallWebhookSecret(db, user.userId, body.organizationId),
  );

  registerCall(app, deps, calls.webhooks.rotateCallSecret, ({ user, body }) =>
    rotateCallWebhookSecret(db, user.userId, body.organizationId),
  );

  registerCall(app, deps, calls.webhooks.callDeliveries, async ({ user, body }) => {
    return { deliveries: await listCallDeliveries(db, user.userId, body.organizationId) };
  });

  registerCall(app, deps, calls.webhooks.sendTest, async ({ user, body }) => {
    await sendTestEvent(db, user.userId, body.organizationId, body.endpointId);
    return {};
  });
}

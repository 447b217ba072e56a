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

/** What these routes use of the application's dependencies. */
export type WebhooksRouteDeps = Pick<AppDependencies, "config" | "database">;

/** The Webhooks page: the owner's alone (decision 012), as each call declares and the gate checks. */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhooksRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.webhooks.list, async ({ body }) => {
    return { endpoints: await listEndpoints(db, body.organizationId) };
  });

  registerCall(app, deps, calls.webhooks.insert, ({ body }) =>
    createEndpoint(db, body.organizationId, { url: body.url, events: body.events }),
  );

  registerCall(app, deps, calls.webhooks.update, async ({ body }) => {
    await updateEndpoint(db, body.organizationId, body.endpointId, body);
    return {};
  });

  registerCall(app, deps, calls.webhooks.delete, async ({ body }) => {
    await deleteEndpoint(db, body.organizationId, body.endpointId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.deliveries, async ({ body }) => {
    return { deliveries: await listDeliveries(db, body.organizationId, body.endpointId) };
  });

  registerCall(app, deps, calls.webhooks.resend, async ({ body }) => {
    await resendDelivery(db, body.organizationId, body.endpointId, body.deliveryId);
    return {};
  });

  registerCall(app, deps, calls.webhooks.callSecret, ({ body }) =>
    getCallWebhookSecret(db, body.organizationId),
  );

  registerCall(app, deps, calls.webhooks.rotateCallSecret, ({ body }) =>
    rotateCallWebhookSecret(db, body.organizationId),
  );

  registerCall(app, deps, calls.webhooks.callDeliveries, async ({ body }) => {
    return { deliveries: await listCallDeliveries(db, body.organizationId) };
  });

  registerCall(app, deps, calls.webhooks.sendTest, async ({ body }) => {
    await sendTestEvent(db, body.organizationId, body.endpointId);
    return {};
  });
}

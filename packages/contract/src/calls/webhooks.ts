import { z } from "zod";
import { defineCall } from "../define-call";
import { emptyResponse, idSchema, isoDateTimeSchema, singleLine, usdSchema } from "../fields";
import { listText } from "../messages";

/** Webhook endpoints and alerts of an organization (issue 18). */

/** The events an endpoint may subscribe to; each is also what `type` says in a delivered payload. */
export const WEBHOOK_EVENT_TYPES = [
  "request.succeeded",
  "request.failed",
  "training.ready",
  "training.failed",
  "balance.low",
  "budget.threshold",
  "payment.succeeded",
  "payment.failed",
  "auto_recharge.failed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "Send test event" delivers; no endpoint subscribes to it, it goes to the one endpoint asked. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_URL_MAX_LENGTH = 2000;
/** Endpoints per organization. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/** Deliveries listed per endpoint (newest first). */
export const WEBHOOK_DELIVERIES_LISTED = 50;
/** How long a delivery waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * How long events and finished deliveries are kept (as Stripe keeps its events): the delivery log and
 * a delivery's resend reach back this far. A delivery still being retried is kept until it finishes.
 */
export const WEBHOOK_HISTORY_RETENTION_DAYS = 30;
/** How much of a receiver's answer is kept in the delivery log. */
export const WEBHOOK_RESPONSE_BODY_MAX_BYTES = 1024;
/**
 * When each try runs after the previous one failed (the Standard Webhooks schedule): eight tries
 * over about 27 hours.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
/** An endpoint whose deliveries kept failing this long is disabled and its owner mailed. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3_600_000;
/** Budget shares that send an alert (and a `budget.threshold` event) once per month each. */
export const BUDGET_ALERT_PERCENTS = [50, 80, 100] as const;

export const WEBHOOK_URL_INVALID = "Enter an http:// or https:// address.";
export const WEBHOOK_EVENTS_REQUIRED = "Choose at least one event.";
export const WEBHOOK_ENDPOINTS_LIMIT = `An organization can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`;
/** Why a delivery was not sent: the address resolves to a place the server must not call. */
export const WEBHOOK_TARGET_REFUSED =
  "The address resolves to a private or local network and was not called.";
export const WEBHOOK_DISABLED_AFTER_FAILURES = "Disabled after a day of failed deliveries.";
/** Why a delivery failed: the receiver took longer than WEBHOOK_TIMEOUT_MS to answer. */
export const WEBHOOK_RECEIVER_TIMED_OUT = "The receiver did not answer in time.";

export const webhookUrlSchema = singleLine(z.string().trim().max(WEBHOOK_URL_MAX_LENGTH)).pipe(
  z.url({ protocol: /^https?$/, error: WEBHOOK_URL_INVALID }),
);

const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, WEBHOOK_EVENTS_REQUIRED)
  .transform((events) => [...new Set(events)]);

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** Why the server disabled it (null when enabled or disabled by a person). */
  disabledReason: z.string().nullable(),
  createdAt: isoDateTimeSchema,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** Tries made so far. */
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  /** The first kilobyte of the receiver's last answer, or why it could not be reached. */
  responseBody: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  lastAttemptAt: isoDateTimeSchema.nullable(),
  nextAttemptAt: isoDateTimeSchema.nullable(),
  createdAt: isoDateTimeSchema,
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const organizationRequest = z.object({ organizationId: idSchema });
const endpointRequest = z.object({ organizationId: idSchema, endpointId: idSchema });

export const listWebhooksCall = defineCall({
  path: "/v1/organizations/webhooks/list",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: organizationRequest,
  response: z.object({ endpoints: z.array(webhookEndpointSchema) }),
});

export const insertWebhookCall = defineCall({
  path: "/v1/organizations/webhooks/insert",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  // Sends the organization's events (and, at creation, the signing secret) wherever the caller says.
  requiresReauthentication: true,
  request: z.object({ organizationId: idSchema, url: webhookUrlSchema, events: webhookEventsSchema }),
  /** `secret` (`whsec_…`) is shown this once; receivers verify signatures with it. */
  response: z.object({ endpoint: webhookEndpointSchema, secret: z.string() }),
});

export const updateWebhookCall = defineCall({
  path: "/v1/organizations/webhooks/update",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  // Sends the organization's events (and, at creation, the signing secret) wherever the caller says.
  requiresReauthentication: true,
  request: endpointRequest.extend({
    url: webhookUrlSchema,
    events: webhookEventsSchema,
    enabled: z.boolean(),
  }),
  response: emptyResponse,
});

export const deleteWebhookCall = defineCall({
  path: "/v1/organizations/webhooks/delete",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: endpointRequest,
  response: emptyResponse,
});

export const listWebhookDeliveriesCall = defineCall({
  path: "/v1/organizations/webhooks/deliveries",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: endpointRequest,
  response: z.object({ deliveries: z.array(webhookDeliverySchema) }),
});

/** Delivers a logged event again (same webhook-id, so receivers can tell it is the same event). */
export const resendWebhookDeliveryCall = defineCall({
  path: "/v1/organizations/webhooks/resend",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: endpointRequest.extend({ deliveryId: idSchema }),
  response: emptyResponse,
});

export const sendTestWebhookCall = defineCall({
  path: "/v1/organizations/webhooks/send-test",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: endpointRequest,
  response: emptyResponse,
});

/**
 * Ours (issue 29): the secret that signs the organization's per-call webhooks (the `webhook` field of
 * a feature call), made on first use; receivers verify with it as with an endpoint's. Revealing it
 * lets the holder forge the organization's call events: it needs a recent sign-in proof (issue 27).
 */
export const getCallWebhookSecretCall = defineCall({
  path: "/v1/organizations/webhooks/call-secret",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  requiresReauthentication: true,
  request: organizationRequest,
  response: z.object({ secret: z.string() }),
});

/** A new per-call webhook secret; deliveries not yet sent are signed with it. */
export const rotateCallWebhookSecretCall = defineCall({
  path: "/v1/organizations/webhooks/rotate-call-secret",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  requiresReauthentication: true,
  request: organizationRequest,
  response: z.object({ secret: z.string() }),
});

/** The newest deliveries of per-call webhooks, with the call each belongs to. */
export const listCallWebhookDeliveriesCall = defineCall({
  path: "/v1/organizations/webhooks/call-deliveries",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: organizationRequest,
  response: z.object({
    deliveries: z.array(webhookDeliverySchema.extend({ requestId: z.string(), url: z.string() })),
  }),
});

export const webhookCalls = {
  list: listWebhooksCall,
  insert: insertWebhookCall,
  update: updateWebhookCall,
  delete: deleteWebhookCall,
  deliveries: listWebhookDeliveriesCall,
  resend: resendWebhookDeliveryCall,
  sendTest: sendTestWebhookCall,
  callSecret: getCallWebhookSecretCall,
  rotateCallSecret: rotateCallWebhookSecretCall,
  callDeliveries: listCallWebhookDeliveriesCall,
} as const;

/** Alerts on the Payments page: amounts in USD, null when the alert is off. */
export const alertSettingsSchema = z.object({
  lowBalance: usdSchema.min(0).nullable(),
  monthlyBudget: usdSchema.positive().nullable(),
  /** Feature calls answer 402 `budget-reached` once this month's spend reaches the budget. */
  budgetHardStop: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const getAlertsCall = defineCall({
  path: "/v1/payments/get-alerts",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: organizationRequest,
  response: alertSettingsSchema.extend({
    /** What the organization's feature calls cost this UTC month so far. */
    monthSpend: usdSchema,
  }),
});

export const updateAlertsCall = defineCall({
  path: "/v1/payments/update-alerts",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: alertSettingsSchema.extend({ organizationId: idSchema }),
  response: emptyResponse,
});

export const alertCalls = { get: getAlertsCall, update: updateAlertsCall } as const;

export type InsertWebhookRequest = z.input<typeof insertWebhookCall.request>;
export type ListCallWebhookDeliveriesResponse = z.infer<typeof listCallWebhookDeliveriesCall.response>;
export type UpdateWebhookRequest = z.input<typeof updateWebhookCall.request>;
export type UpdateAlertsRequest = z.input<typeof updateAlertsCall.request>;
export type GetAlertsResponse = z.output<typeof getAlertsCall.response>;
/** How each event is described where endpoints choose theirs. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "request.succeeded": "A call succeeded",
  "request.failed": "A call failed",
  "training.ready": "An AI Clone training is ready",
  "training.failed": "An AI Clone training failed (refunded)",
  "balance.low": "The balance fell below the alert threshold",
  "budget.threshold": `The monthly budget reached ${listText(BUDGET_ALERT_PERCENTS, "or")} %`,
  "payment.succeeded": "A payment succeeded",
  "payment.failed": "A payment failed",
  "auto_recharge.failed": "An auto recharge failed",
};

const requestEventData = z.object({
  request_id: z.string(),
  project_id: z.string(),
  endpoint: z.string().describe("The feature's endpoint, e.g. /v1/images/background-removal."),
  api_key_id: z.string().nullable().describe("The API key that made the call; null for the playground."),
  status: z.enum(["done", "error"]),
  cost: z.number().describe("What the call cost in USD (0 for a failed, refunded call)."),
  error: z.string().optional().describe("Why the call failed."),
});
const trainingEventData = z.object({
  request_id: z.string(),
  project_id: z.string(),
  identity_id: z.string().describe("The trained identity, to pass as identity_id to the features."),
});
const paymentEventData = z.object({
  organization_id: z.string(),
  payment_id: z.string(),
  kind: z.enum(["manual", "auto"]),
  amount: z.number().describe("USD."),
});

/** What `data` holds for each event type; the OpenAPI document's `webhooks` section is built from these. */
export const WEBHOOK_EVENT_DATA = {
  "request.succeeded": requestEventData,
  "request.failed": requestEventData,
  "training.ready": trainingEventData,
  "training.failed": trainingEventData.extend({
    refunded: z.number().describe("The training's charge, given back to the balance (USD)."),
  }),
  "balance.low": z.object({
    organization_id: z.string(),
    balance: z.number().describe("USD."),
    threshold: z.number().describe("The alert threshold crossed (USD)."),
  }),
  "budget.threshold": z.object({
    organization_id: z.string(),
    month: z.string().describe("The UTC month, YYYY-MM."),
    percent: z.literal(BUDGET_ALERT_PERCENTS),
    spend: z.number().describe("Spent this month (USD)."),
    budget: z.number().describe("The monthly budget (USD)."),
  }),
  "payment.succeeded": paymentEventData.extend({
    balance: z.number().describe("The balance after it (USD)."),
  }),
  "payment.failed": paymentEventData.extend({ message: z.string().describe("The card provider's reason.") }),
  "auto_recharge.failed": z.object({
    organization_id: z.string(),
    amount: z.number().describe("The recharge amount that failed (USD)."),
    message: z.string().describe("The card's error."),
  }),
} as const satisfies Record<WebhookEventType, z.ZodType>;
export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** An event as receivers get it (Standard Webhooks): its type, when it happened (ISO 8601) and its data. */
export interface WebhookEventBody<T extends WebhookEventType = WebhookEventType> {
  type: T;
  timestamp: string;
  data: WebhookEventData<T>;
}

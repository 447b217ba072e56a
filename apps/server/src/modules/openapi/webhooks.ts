import {
  CALL_WEBHOOK_EVENT_TYPES,
  CALL_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
} from "@prism/contract";
import { jsonSchemaOf } from "./json-schema";
import { exampleSucceededDetail } from "./operations/request-detail";
import { TAGS } from "./tags";
import type { JsonObject, OpenApiDocument } from "./types";

export const WEBHOOK_HEADERS = {
  "webhook-id": "The event's id: the same on every retry and resend, so a receiver handles each event once.",
  "webhook-timestamp": "Unix seconds when this try was signed; refuse ones too far from your clock.",
  "webhook-signature":
    "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (Standard Webhooks).",
} as const;

function headerParameters(secret: string): JsonObject[] {
  return Object.entries(WEBHOOK_HEADERS).map(([name, description]) => ({
    name,
    in: "header",
    required: true,
    description: description.replace("the endpoint's secret", secret),
    schema: { type: "string" },
  }));
}

function envelope(type: string, data: JsonObject, example?: JsonObject): JsonObject {
  return {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["type", "timestamp", "data"],
          properties: {
            type: { type: "string", const: type },
            timestamp: { type: "string", format: "date-time", description: "When the event happened." },
            data,
          },
        },
        ...(example ? { example } : {}),
      },
    },
  };
}

/** `request.succeeded` → `requestSucceededEvent`: the webhook's operation id. */
function webhookOperationId(type: string): string {
  return `${type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase())}Event`;
}

const RECEIVED = { "200": { description: "Received (any 2xx status counts)." } };

/**
 * What is sent to webhooks, in OpenAPI 3.1's `webhooks`: one entry per event an organization's
 * endpoint can subscribe to (the Standard Webhooks envelope with the event's `data` schema from the
 * contract), the test event, and the two events of a per-call `webhook`.
 */
export function webhooksSection(): OpenApiDocument["webhooks"] {
  const tries = WEBHOOK_RETRY_SCHEDULE_MS.length + 1;
  const retries = `Answer 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} s; anything else is retried with exponential backoff, ${tries} tries over about a day`;
  const endpointEvents = WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        operationId: webhookOperationId(type),
        summary: WEBHOOK_EVENT_LABELS[type],
        description: [
          `Sent to the organization's webhook endpoints subscribed to \`${type}\` (set up by the owner on the`,
          "console's Webhooks page), signed per the Standard Webhooks specification: verify it with the",
          `\`standardwebhooks\` library and the endpoint's secret. ${retries}, and an endpoint failing for a day is disabled.`,
        ].join(" "),
        tags: [TAGS.usage.name],
        parameters: headerParameters("the endpoint's secret"),
        requestBody: envelope(type, jsonSchemaOf(WEBHOOK_EVENT_DATA[type], "input")),
        responses: RECEIVED,
      },
    },
  ]);
  const testEvent = [
    WEBHOOK_TEST_EVENT,
    {
      post: {
        operationId: webhookOperationId(WEBHOOK_TEST_EVENT),
        summary: "Test event",
        description:
          "Sent to one endpoint when its owner presses **Send test event** on the console's Webhooks page, signed as every event is. No endpoint subscribes to it.",
        tags: [TAGS.usage.name],
        parameters: headerParameters("the endpoint's secret"),
        requestBody: envelope(WEBHOOK_TEST_EVENT, {
          type: "object",
          required: ["organization_id", "message"],
          properties: { organization_id: { type: "string" }, message: { type: "string" } },
        }),
        responses: RECEIVED,
      },
    },
  ];
  const detail = exampleSucceededDetail();
  const callEvents = CALL_WEBHOOK_EVENTS.map((event) => {
    const type = CALL_WEBHOOK_EVENT_TYPES[event];
    const data =
      event === "start" ? { ...detail, status: "running", response_data: {}, completed_date: null } : detail;
    return [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          summary: event === "start" ? "A call started" : "A call ended",
          description: [
            `Sent to the \`webhook\` URL given with a feature call whose \`webhook_events_filter\` names \`${event}\``,
            event === "start"
              ? "when the call leaves the queue and starts running."
              : "(the default) when the call ends: succeeded, failed or canceled.",
            "`data` is the call as `GET /v1/requests/{id}` answers it, with absolute file URLs. Signed per the",
            "Standard Webhooks specification with the organization's per-call webhook secret (shown on the",
            `console's Webhooks page). ${retries}.`,
          ].join(" "),
          tags: [TAGS.usage.name],
          parameters: headerParameters("the organization's per-call webhook secret"),
          requestBody: envelope(
            type,
            { $ref: "#/components/schemas/RequestDetail" },
            {
              type,
              timestamp: "2026-05-04T10:21:35.000Z",
              data,
            },
          ),
          responses: RECEIVED,
        },
      },
    ];
  });
  return Object.fromEntries([...endpointEvents, testEvent, ...callEvents]);
}

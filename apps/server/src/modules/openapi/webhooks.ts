import {
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TIMEOUT_MS,
} from "@prism/contract";
import { jsonSchemaOf } from "./json-schema";
import { TAGS } from "./tags";
import type { OpenApiDocument } from "./types";

export const WEBHOOK_HEADERS = {
  "webhook-id": "The event's id: the same on every retry and resend, so a receiver handles each event once.",
  "webhook-timestamp": "Unix seconds when this try was signed; refuse ones too far from your clock.",
  "webhook-signature":
    "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (Standard Webhooks).",
} as const;

/**
 * One entry per event an endpoint can subscribe to: the Standard Webhooks envelope with the event's
 * `data` schema from the contract.
 */
export function webhooksSection(): OpenApiDocument["webhooks"] {
  const tries = WEBHOOK_RETRY_SCHEDULE_MS.length + 1;
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: WEBHOOK_EVENT_LABELS[type],
          description: [
            `Sent to the organization's webhook endpoints subscribed to \`${type}\` (set up by the owner on the`,
            "console's Webhooks page), signed per the Standard Webhooks specification: verify it with the",
            "`standardwebhooks` library and the endpoint's secret. Answer 2xx within",
            `${WEBHOOK_TIMEOUT_MS / 1000} s; anything else is retried with exponential backoff, ${tries} tries over`,
            "about a day, and an endpoint failing for a day is disabled.",
          ].join(" "),
          tags: [TAGS.usage.name],
          parameters: Object.entries(WEBHOOK_HEADERS).map(([name, description]) => ({
            name,
            in: "header",
            required: true,
            description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { type: "string", const: type },
                    timestamp: {
                      type: "string",
                      format: "date-time",
                      description: "When the event happened.",
                    },
                    data: jsonSchemaOf(WEBHOOK_EVENT_DATA[type], "input"),
                  },
                },
              },
            },
          },
          responses: { "200": { description: "Received (any 2xx status counts)." } },
        },
      },
    ]),
  );
}

import { z } from "zod";
import { historyRequestRecordSchema, type RequestStatus } from "../entities";
import { isoDateTimeSchema, usdSchema } from "../fields";
import {
  CALL_WEBHOOK_EVENTS,
  CALL_WEBHOOK_URL_MAX_LENGTH,
  type CallWebhookEvent,
  DEFAULT_CALL_WEBHOOK_EVENTS,
} from "../limits";

/**
 * Ours (issue 29): a feature call followed after it was submitted — asynchronously with `Prefer:
 * respond-async` (202), or any call by its id. `GET /v1/requests/{id}` and `POST
 * /v1/requests/{id}/cancel` take an API key (its project's calls) or a console session with the
 * project in `x-authorization-project`. GET routes and a path parameter, so described here rather than
 * with `defineCall`.
 */

/** `GET /v1/requests/{id}` in OpenAPI's notation; the server routes `/v1/requests/:id`. */
export const REQUEST_DETAIL_PATH = "/v1/requests/{id}";
export const REQUEST_CANCEL_PATH = "/v1/requests/{id}/cancel";

export function requestDetailPath(id: string): string {
  return REQUEST_DETAIL_PATH.replace("{id}", encodeURIComponent(id));
}
export function requestCancelPath(id: string): string {
  return REQUEST_CANCEL_PATH.replace("{id}", encodeURIComponent(id));
}

/**
 * A call's state as the public API names it (Replicate's and fal's words): waiting for a slot,
 * running, then succeeded, failed (refunded) or canceled (refunded).
 */
export const CALL_STATES = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export type CallState = (typeof CALL_STATES)[number];

const STATE_OF: Record<RequestStatus, CallState> = {
  queued: "queued",
  generating: "running",
  done: "succeeded",
  error: "failed",
  canceled: "canceled",
};

export function callStateOf(status: RequestStatus): CallState {
  return STATE_OF[status];
}

/** The request log's status of a call in a public state (the history rows keep the log's words). */
export function requestStatusOfState(state: CallState): RequestStatus {
  return (Object.keys(STATE_OF) as RequestStatus[]).find((status) => STATE_OF[status] === state) ?? "error";
}

export function isEndedState(state: CallState): state is "succeeded" | "failed" | "canceled" {
  return state === "succeeded" || state === "failed" || state === "canceled";
}

/**
 * One call as its caller follows it: the history record (inputs, result, cost) with its feature, its
 * state, where it stands in the queue, when it was queued (`request_date`), started and ended, what
 * was reserved for it, why it failed, and where to follow or cancel it.
 */
export const requestDetailSchema = historyRequestRecordSchema.extend({
  endpoint: z.string(),
  status: z.enum(CALL_STATES),
  /** How many calls start before this one in its provider's queue (0: next); null unless queued. */
  queue_position: z.number().int().min(0).nullable(),
  started_date: isoDateTimeSchema.nullable(),
  completed_date: isoDateTimeSchema.nullable(),
  /** Dollars taken from the balance when the call was submitted; given back if it fails or is canceled. */
  reserved: usdSchema,
  /** The error code it answered with (`feature-failed`, `feature-timeout`, `request-canceled`, ...). */
  error: z.string().nullable(),
  error_message: z.string().nullable(),
  urls: z.object({ get: z.string(), cancel: z.string() }),
});
export type RequestDetail = z.infer<typeof requestDetailSchema>;

/**
 * The fields every feature call takes besides its own, as multipart text fields: a per-call webhook
 * (https; http and private addresses only outside production) and which of its events to send
 * (`completed` by default; `start` as well or instead, separated by a comma).
 */
export const callOptionsSchema = z.object({
  webhook: z
    .string()
    .trim()
    .max(CALL_WEBHOOK_URL_MAX_LENGTH, `must be at most ${CALL_WEBHOOK_URL_MAX_LENGTH} characters`)
    .pipe(z.url({ protocol: /^https?$/, message: "must be an https:// URL" }))
    .optional(),
  webhook_events_filter: z
    .string()
    .optional()
    .transform((value, context): CallWebhookEvent[] => {
      if (value === undefined || value.trim() === "") return [...DEFAULT_CALL_WEBHOOK_EVENTS];
      const events = [...new Set(value.split(",").map((event) => event.trim()))];
      for (const event of events) {
        if (!(CALL_WEBHOOK_EVENTS as readonly string[]).includes(event)) {
          context.addIssue({
            code: "custom",
            message: `"${event}" is not an event; use ${CALL_WEBHOOK_EVENTS.join(" or ")}`,
          });
          return z.NEVER;
        }
      }
      return events as CallWebhookEvent[];
    }),
});
export type CallOptions = z.infer<typeof callOptionsSchema>;

/** The per-call webhook's event types (the body's `type`); `data` is the call as GET answers it. */
export const CALL_WEBHOOK_EVENT_TYPES = { start: "request.started", completed: "request.completed" } as const;
export type CallWebhookEventType = (typeof CALL_WEBHOOK_EVENT_TYPES)[CallWebhookEvent];
export interface CallWebhookBody {
  type: CallWebhookEventType;
  timestamp: string;
  data: RequestDetail;
}

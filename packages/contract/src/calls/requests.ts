import { z } from "zod";
import { featureEndpointSchema } from "../catalog";
import { defineCall } from "../define-call";
import { type RequestStatus, requestStatusSchema } from "../entities";
import { idSchema, isoDateSchema, isoDateTimeSchema, usdSchema } from "../fields";
import { daysInRange, USAGE_MAX_DAYS } from "./usage";

/**
 * Ours (issue 18): the Requests view of Home, every call of the selected projects across all features,
 * newest first, read page after page through a keyset (never an offset, so a page deep into millions of
 * calls costs what the first one does).
 */

/** Calls per page of the Requests view. */
export const REQUESTS_PAGE_SIZE = 50;
/** The cursor is opaque to clients; this only bounds what the server will try to read. */
export const REQUESTS_CURSOR_MAX_LENGTH = 200;
/** The API key filter's value for calls made from the console rather than with a key. */
export const PLAYGROUND_CALLER_FILTER = "playground";
export const REQUESTS_RANGE_REVERSED = "The end date must not be before the start date.";
export const INVALID_REQUESTS_CURSOR = "The page cursor is not valid. Reload the list.";
export const REQUESTS_PAGE_TITLE = "Requests";
/** How the view names a call's status. */
export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  queued: "Queued",
  generating: "Running",
  done: "Succeeded",
  error: "Failed",
  canceled: "Canceled",
};
export const REQUESTS_EMPTY_TEXT =
  "No calls match. Calls made from the playground or with an API key show up here.";

export const listRequestsRequest = z
  .object({
    organizationId: idSchema,
    /** The projects to list; each must be one of the organization's that the caller may use. */
    projectIds: z.array(idSchema).min(1).max(1_000),
    endpoint: featureEndpointSchema.optional(),
    /** An API key of one of the projects, or `playground` for the console's own calls. */
    apiKeyId: idSchema.optional(),
    status: requestStatusSchema.optional(),
    /** First UTC day, included. */
    from: isoDateSchema.optional(),
    /** Last UTC day, included. */
    to: isoDateSchema.optional(),
    /** `nextCursor` of the previous page; absent for the first page. */
    cursor: z.string().min(1).max(REQUESTS_CURSOR_MAX_LENGTH).optional(),
  })
  .refine((query) => !query.from || !query.to || query.to >= query.from, {
    message: REQUESTS_RANGE_REVERSED,
    path: ["to"],
  })
  .refine((query) => !query.from || !query.to || daysInRange(query.from, query.to) <= USAGE_MAX_DAYS, {
    message: `The range may span at most ${USAGE_MAX_DAYS} days.`,
    path: ["to"],
  });

export const requestLogEntrySchema = z.object({
  id: idSchema,
  date: isoDateTimeSchema,
  projectId: idSchema,
  projectName: z.string(),
  endpoint: z.string(),
  /** The feature's name from the catalog (the endpoint itself for one outside it). */
  feature: z.string(),
  /** Null: made from the console (the playground). */
  apiKeyId: idSchema.nullable(),
  /** The key's name, or "Playground". */
  caller: z.string(),
  status: requestStatusSchema,
  /** From the call's start to its end; null while it runs. */
  durationMs: z.number().int().nonnegative().nullable(),
  /** Dollars, exact from micro-dollars; 0 for a failed (refunded) call. */
  cost: usdSchema,
  /** The result file, when the call produced one and it was not deleted. */
  resultUrl: z.string().nullable(),
  /**
   * The start of a text result (a transcript), for calls whose result is words rather than a file;
   * at most REQUEST_RESULT_TEXT_PREVIEW characters, null for the others.
   */
  resultText: z.string().nullable(),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

/** How much of a text result (a transcript) a row of the Requests view shows. */
export const REQUEST_RESULT_TEXT_PREVIEW = 160;

export const listRequestsResponse = z.object({
  requests: z.array(requestLogEntrySchema),
  /** Absent when this page is the last. */
  nextCursor: z.string().nullable(),
  /** The API keys of the listed projects, revoked ones too, for the key filter. */
  apiKeys: z.array(z.object({ id: idSchema, name: z.string(), projectName: z.string() })),
});

export const listRequestsCall = defineCall({
  path: "/v1/users/requests/list",
  auth: "session",
  access: { scope: "organization-projects", permission: "member" },
  request: listRequestsRequest,
  response: listRequestsResponse,
});

/** Ours (issue 33): one call of the Requests view opened, with everything it was sent and answered. */
export const getRequestRequest = z.object({
  organizationId: idSchema,
  requestId: idSchema,
});

export const requestLogDetailSchema = requestLogEntrySchema.extend({
  /** The person whose console made the call; null for an API key's call or a deleted account. */
  userName: z.string().nullable(),
  /** The caller's address as the server saw it, when it was recorded. */
  clientIp: z.string().nullable(),
  /** The non-file fields the call was sent (prompt, width, language...), by their API names. */
  parameters: z.record(z.string(), z.unknown()),
  /** The uploaded files by field, as URLs; empty once the row was deleted from the playground. */
  inputs: z.record(z.string(), z.array(z.string())),
  /** A JSON result (a transcript's segments, a training's identity); null when the result is a file. */
  resultBody: z.unknown().nullable(),
  /** Why the call failed (it was refunded); null otherwise. */
  error: z.string().nullable(),
  /** Deleted from the playground's history: its files are gone, its money trail stays. */
  deleted: z.boolean(),
});
export type RequestLogDetail = z.infer<typeof requestLogDetailSchema>;

export const getRequestResponse = z.object({ request: requestLogDetailSchema });

export const getRequestCall = defineCall({
  path: "/v1/users/requests/get",
  auth: "session",
  access: { scope: "organization", permission: "member" },
  request: getRequestRequest,
  response: getRequestResponse,
});

export const requestLogCalls = {
  list: listRequestsCall,
  get: getRequestCall,
} as const;

export type ListRequestsRequest = z.infer<typeof listRequestsRequest>;
export type ListRequestsResponse = z.infer<typeof listRequestsResponse>;
export type GetRequestResponse = z.infer<typeof getRequestResponse>;

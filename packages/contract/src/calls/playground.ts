import { z } from "zod";
import { featureEndpointSchema } from "../catalog";
import { defineCall } from "../define-call";
import { historyRequestRecordSchema, trainedIdentitySchema } from "../entities";
import { emptyResponse, idSchema, usdSchema } from "../fields";
import { HISTORY_MAX_OFFSET } from "../limits";
import { PROVIDER_NAMES } from "../providers";
import { REQUESTS_CURSOR_MAX_LENGTH } from "./requests";

/** Playground history: the past feature calls of a project, their price, and the AI Clones. */

/** Offset paging: the client passes the count of finished items it holds. */
const offsetSchema = z.number().int().min(0).default(0);

export const getRequestsRequest = z.object({
  endpoint: featureEndpointSchema,
  projectId: idSchema,
  /** The spec's paging, up to `HISTORY_MAX_OFFSET`; ignored when `cursor` is given. */
  offset: z.number().int().min(0).max(HISTORY_MAX_OFFSET).default(0),
  /** The previous page's `nextCursor`: the page after it, at any depth for the cost of the first. */
  cursor: z.string().min(1).max(REQUESTS_CURSOR_MAX_LENGTH).optional(),
});
export const priceInfoSchema = z.object({
  /** Dollars per unit of the feature's billing unit (per call, per image, or per audio minute). */
  price: usdSchema,
  /** Dollars per image when an AI Clone is used (Pegasus generation only). */
  priceIdentity: usdSchema.optional(),
});
export const getRequestsResponse = z.object({
  /** Newest first, one page (`HISTORY_PAGE_SIZE`). */
  requests: z.array(historyRequestRecordSchema),
  priceInfo: priceInfoSchema,
  hasMoreItems: z.boolean(),
  /** Where the next page starts (pass it as `cursor`); null on the last page. */
  nextCursor: z.string().nullable(),
});
export const getRequestsCall = defineCall({
  path: "/v1/users/playground/get-requests",
  auth: "session",
  access: { scope: "project", permission: "organization.playground" },
  request: getRequestsRequest,
  response: getRequestsResponse,
});

export const deleteRequestRequest = z.object({
  projectId: idSchema,
  requestId: idSchema,
});
export const deleteRequestResponse = emptyResponse;
export const deleteRequestCall = defineCall({
  path: "/v1/users/playground/delete-request",
  auth: "session",
  access: { scope: "project", permission: "organization.playground" },
  request: deleteRequestRequest,
  response: deleteRequestResponse,
});

export const getTrainedIdentitiesRequest = z.object({
  projectId: idSchema,
  offset: offsetSchema,
});
export const getTrainedIdentitiesResponse = z.object({
  /** Newest first. */
  requests: z.array(trainedIdentitySchema),
  hasMoreItems: z.boolean(),
});
export const getTrainedIdentitiesCall = defineCall({
  path: "/v1/users/playground/get-trained-identities",
  auth: "session",
  access: { scope: "project", permission: "organization.playground" },
  // API users need the identity ids that Pegasus generation and identity inpainting take.
  apiKey: true,
  request: getTrainedIdentitiesRequest,
  response: getTrainedIdentitiesResponse,
});

/**
 * Which features can run on this deployment right now and at what price: a feature with no provider
 * configured is shown as unavailable, with the reason, and its action is disabled.
 */
export const getFeatureStatusRequest = z.object({});
export const featureStatusSchema = z.object({
  endpoint: featureEndpointSchema,
  available: z.boolean(),
  /** Why the feature cannot run; null when it can. */
  reason: z.string().nullable(),
  /** The provider serving it: builtin (CPU engine), http (model server), openai or a hosted platform. */
  provider: z.enum(PROVIDER_NAMES).nullable(),
  priceInfo: priceInfoSchema,
});
export type FeatureStatus = z.infer<typeof featureStatusSchema>;
export const getFeatureStatusResponse = z.object({ features: z.array(featureStatusSchema) });
export const getFeatureStatusCall = defineCall({
  path: "/v1/users/playground/feature-status",
  auth: "session",
  access: { scope: "account" },
  request: getFeatureStatusRequest,
  response: getFeatureStatusResponse,
});

export const playgroundCalls = {
  getFeatureStatus: getFeatureStatusCall,
  getRequests: getRequestsCall,
  deleteRequest: deleteRequestCall,
  getTrainedIdentities: getTrainedIdentitiesCall,
} as const;

export type PriceInfo = z.infer<typeof priceInfoSchema>;
export type GetRequestsRequest = z.infer<typeof getRequestsRequest>;
export type GetRequestsResponse = z.infer<typeof getRequestsResponse>;
export type DeleteRequestRequest = z.infer<typeof deleteRequestRequest>;
export type GetTrainedIdentitiesRequest = z.infer<typeof getTrainedIdentitiesRequest>;
export type GetTrainedIdentitiesResponse = z.infer<typeof getTrainedIdentitiesResponse>;

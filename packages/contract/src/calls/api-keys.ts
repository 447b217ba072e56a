import { z } from "zod";
import { apiKeyLimitsSchema } from "../api-key-limits";
import { defineCall } from "../define-call";
import { apiKeySchema, createdApiKeySchema, requestStatusSchema } from "../entities";
import { emptyResponse, idSchema, isoDateTimeSchema, singleLine, usdSchema } from "../fields";
import { API_KEY_NO_NAME, NAME_MAX_LENGTH } from "../limits";

/** API keys of a project. */

/** An empty name is stored as the spec's "- no name -" placeholder. */
const apiKeyNameSchema = singleLine(z.string().trim().max(NAME_MAX_LENGTH)).transform(
  (name) => name || API_KEY_NO_NAME,
);

export const listApiKeysRequest = z.object({
  projectId: idSchema,
});
export const listApiKeysResponse = z.object({
  apiKeys: z.array(apiKeySchema),
});
export const listApiKeysCall = defineCall({
  path: "/v1/users/api-keys/list",
  auth: "session",
  access: { scope: "project", permission: "member" },
  request: listApiKeysRequest,
  response: listApiKeysResponse,
});

export const insertApiKeyRequest = z.object({
  projectId: idSchema,
  apiKeyName: apiKeyNameSchema,
  /** Ours (issue 17): what the key may do; absent, the key has no limits. */
  limits: apiKeyLimitsSchema.optional(),
});
/** `apiKey.content` is the secret, returned this once and never again. */
export const insertApiKeyResponse = z.object({
  apiKey: createdApiKeySchema,
});
export const insertApiKeyCall = defineCall({
  path: "/v1/users/api-keys/insert",
  auth: "session",
  access: { scope: "project", permission: "apiKeys.create" },
  request: insertApiKeyRequest,
  response: insertApiKeyResponse,
});

export const updateApiKeyRequest = z.object({
  projectId: idSchema,
  apiKeyId: idSchema,
  apiKeyName: apiKeyNameSchema,
  /** Ours (issue 17): the key's new limits, replacing the old; absent, they stay as they are. */
  limits: apiKeyLimitsSchema.optional(),
});
export const updateApiKeyResponse = emptyResponse;
export const updateApiKeyCall = defineCall({
  path: "/v1/users/api-keys/update",
  auth: "session",
  access: { scope: "project", permission: "apiKeys.create" },
  request: updateApiKeyRequest,
  response: updateApiKeyResponse,
});

export const deleteApiKeyRequest = z.object({
  projectId: idSchema,
  apiKeyId: idSchema,
});
export const deleteApiKeyResponse = emptyResponse;
export const deleteApiKeyCall = defineCall({
  path: "/v1/users/api-keys/delete",
  auth: "session",
  access: { scope: "project", permission: "apiKeys.delete" },
  request: deleteApiKeyRequest,
  response: deleteApiKeyResponse,
});

/** One call of an API key, as its detail drawer lists it. */
export const apiKeyCallSchema = z.object({
  requestId: idSchema,
  endpoint: z.string(),
  status: requestStatusSchema,
  /** Dollars; 0 for a call that failed and was refunded. */
  cost: usdSchema,
  createdAt: isoDateTimeSchema,
  /** The address the call came from, as the server saw it (null for calls made before it was kept). */
  clientIp: z.string().nullable(),
});
export type ApiKeyCall = z.infer<typeof apiKeyCallSchema>;

export const getApiKeyDetailsRequest = z.object({
  projectId: idSchema,
  apiKeyId: idSchema,
});
export const getApiKeyDetailsResponse = z.object({
  apiKey: apiKeySchema,
  /** Dollars the key spent over its life. */
  spendLifetime: usdSchema,
  /** Its last API_KEY_RECENT_CALLS calls, newest first. */
  recentCalls: z.array(apiKeyCallSchema),
});
/** Ours (issue 17): one key with its spend and recent calls, for the detail drawer. */
export const getApiKeyDetailsCall = defineCall({
  path: "/v1/users/api-keys/details",
  auth: "session",
  access: { scope: "project", permission: "member" },
  request: getApiKeyDetailsRequest,
  response: getApiKeyDetailsResponse,
});

export const apiKeyCalls = {
  list: listApiKeysCall,
  insert: insertApiKeyCall,
  update: updateApiKeyCall,
  delete: deleteApiKeyCall,
  details: getApiKeyDetailsCall,
} as const;

export type ListApiKeysRequest = z.infer<typeof listApiKeysRequest>;
export type ListApiKeysResponse = z.infer<typeof listApiKeysResponse>;
export type InsertApiKeyRequest = z.infer<typeof insertApiKeyRequest>;
export type InsertApiKeyResponse = z.infer<typeof insertApiKeyResponse>;
export type UpdateApiKeyRequest = z.infer<typeof updateApiKeyRequest>;
export type DeleteApiKeyRequest = z.infer<typeof deleteApiKeyRequest>;
export type GetApiKeyDetailsRequest = z.infer<typeof getApiKeyDetailsRequest>;
export type GetApiKeyDetailsResponse = z.infer<typeof getApiKeyDetailsResponse>;

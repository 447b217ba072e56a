import { z } from "zod";
import { defineCall } from "../define-call";
import { apiKeySchema, createdApiKeySchema } from "../entities";
import { emptyResponse, idSchema } from "../fields";
import { API_KEY_NO_NAME, NAME_MAX_LENGTH } from "../limits";

/** API keys of a project. */

/** An empty name is stored as the spec's "- no name -" placeholder. */
const apiKeyNameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH)
  .transform((name) => name || API_KEY_NO_NAME);

export const listApiKeysRequest = z.object({
  projectId: idSchema,
});
export const listApiKeysResponse = z.object({
  apiKeys: z.array(apiKeySchema),
});
export const listApiKeysCall = defineCall({
  path: "/v1/users/api-keys/list",
  auth: "session",
  request: listApiKeysRequest,
  response: listApiKeysResponse,
});

export const insertApiKeyRequest = z.object({
  projectId: idSchema,
  apiKeyName: apiKeyNameSchema,
});
/** `apiKey.content` is the secret, returned this once and never again. */
export const insertApiKeyResponse = z.object({
  apiKey: createdApiKeySchema,
});
export const insertApiKeyCall = defineCall({
  path: "/v1/users/api-keys/insert",
  auth: "session",
  request: insertApiKeyRequest,
  response: insertApiKeyResponse,
});

export const updateApiKeyRequest = z.object({
  projectId: idSchema,
  apiKeyId: idSchema,
  apiKeyName: apiKeyNameSchema,
});
export const updateApiKeyResponse = emptyResponse;
export const updateApiKeyCall = defineCall({
  path: "/v1/users/api-keys/update",
  auth: "session",
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
  request: deleteApiKeyRequest,
  response: deleteApiKeyResponse,
});

export const apiKeyCalls = {
  list: listApiKeysCall,
  insert: insertApiKeyCall,
  update: updateApiKeyCall,
  delete: deleteApiKeyCall,
} as const;

export type ListApiKeysRequest = z.infer<typeof listApiKeysRequest>;
export type ListApiKeysResponse = z.infer<typeof listApiKeysResponse>;
export type InsertApiKeyRequest = z.infer<typeof insertApiKeyRequest>;
export type InsertApiKeyResponse = z.infer<typeof insertApiKeyResponse>;
export type UpdateApiKeyRequest = z.infer<typeof updateApiKeyRequest>;
export type DeleteApiKeyRequest = z.infer<typeof deleteApiKeyRequest>;

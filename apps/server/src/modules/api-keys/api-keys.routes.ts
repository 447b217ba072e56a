import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { createApiKey, getApiKeyDetails, listApiKeys, revokeApiKey, updateApiKey } from "./api-keys.service";

export function registerApiKeyRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.apiKeys.list, async ({ user, body }) => ({
    apiKeys: await listApiKeys(db, user.userId, body.projectId),
  }));

  registerCall(app, deps, calls.apiKeys.insert, async ({ user, body }) => ({
    apiKey: await createApiKey(db, user, body.projectId, body.apiKeyName, body.limits),
  }));

  registerCall(app, deps, calls.apiKeys.update, async ({ user, body }) => {
    await updateApiKey(db, user.userId, body.projectId, body.apiKeyId, body.apiKeyName, body.limits);
    return {};
  });

  registerCall(app, deps, calls.apiKeys.details, async ({ user, body }) =>
    getApiKeyDetails(db, user.userId, body.projectId, body.apiKeyId),
  );

  registerCall(app, deps, calls.apiKeys.delete, async ({ user, body }) => {
    await revokeApiKey(db, user.userId, body.projectId, body.apiKeyId);
    return {};
  });
}

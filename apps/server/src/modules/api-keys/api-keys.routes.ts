import { calls } from "@prism/contract";
import { allowedIpsSchema } from "@prism/contract/ip";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { createApiKey, getApiKeyDetails, listApiKeys, revokeApiKey, updateApiKey } from "./api-keys.service";

/** What these routes use of the application's dependencies. */
export type ApiKeysRouteDeps = Pick<AppDependencies, "config" | "database">;

/**
 * The allowlist's entries as addresses (the call's schema checks only their number, so that the
 * console's first page need not download an address parser): a ZodError, answered as the call's own
 * 400 `invalid-input` would be.
 */
const limitsWithCheckedIps = z.object({ limits: z.object({ allowedIps: allowedIpsSchema }).optional() });

export function registerApiKeyRoutes(app: FastifyInstance, deps: ApiKeysRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.apiKeys.list, async ({ body }) => ({
    apiKeys: await listApiKeys(db, body.projectId),
  }));

  registerCall(app, deps, calls.apiKeys.insert, async ({ user, project, body }) => {
    limitsWithCheckedIps.parse(body);
    return { apiKey: await createApiKey(db, user, project, body.apiKeyName, body.limits) };
  });

  registerCall(app, deps, calls.apiKeys.update, async ({ project, body }) => {
    limitsWithCheckedIps.parse(body);
    await updateApiKey(db, project, body.apiKeyId, body.apiKeyName, body.limits);
    return {};
  });

  registerCall(app, deps, calls.apiKeys.details, async ({ body }) =>
    getApiKeyDetails(db, body.projectId, body.apiKeyId),
  );

  registerCall(app, deps, calls.apiKeys.delete, async ({ body }) => {
    await revokeApiKey(db, body.projectId, body.apiKeyId);
    return {};
  });
}

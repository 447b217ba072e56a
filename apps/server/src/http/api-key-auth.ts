import { API_KEY_NOT_VALID } from "@prism/contract";
import type { FastifyRequest } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import { AppError } from "../errors";
import { type ApiKeyPrincipal, authenticateApiKey } from "../modules/api-keys/api-keys.service";
import { limitApiKeyRequests } from "../modules/rate-limit/rate-limit.service";

const BEARER = /^Bearer\s+(\S+)$/i;

/** The API key in `Authorization: Bearer <key>`, if the request carries one. */
export function bearerKeyOf(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? "")?.[1];
}

/**
 * The principal of an API key, counted against the key's request rate (429 `too-many-requests` over
 * it); undefined for a key that is unknown, revoked or of an archived project or organization.
 */
export async function authenticateApiKeyRequest(
  deps: Pick<AppDependencies, "database" | "config">,
  key: string,
): Promise<ApiKeyPrincipal | undefined> {
  const principal = await authenticateApiKey(deps.database.db, key);
  if (!principal) return undefined;
  await limitApiKeyRequests(deps.database.db, principal.apiKeyId, deps.config.limits.apiKeyRequestsPerMinute);
  return principal;
}

/** As {@link authenticateApiKeyRequest}, answering 401 `invalid-api-key` for a key that is not valid. */
export async function requireApiKey(
  deps: Pick<AppDependencies, "database" | "config">,
  key: string,
): Promise<ApiKeyPrincipal> {
  const principal = await authenticateApiKeyRequest(deps, key);
  if (!principal) throw new AppError("invalid-api-key", API_KEY_NOT_VALID);
  return principal;
}

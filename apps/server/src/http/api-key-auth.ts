import { API_KEY_EXPIRED, API_KEY_NOT_VALID, ipNotAllowedText } from "@prism/contract";
import { isIpAllowed } from "@prism/contract/ip";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import { AppError } from "../errors";
import { type ApiKeyPrincipal, authenticateApiKey } from "../modules/api-keys/api-key-runtime.service";
import { limitApiKeyRequests, rateLimitHeaders } from "../modules/rate-limit/rate-limit.service";
import { setRequestActor } from "./request-context";

const BEARER = /^Bearer\s+(\S+)$/i;

/** The API key in `Authorization: Bearer <key>`, if the request carries one. */
export function bearerKeyOf(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? "")?.[1];
}

/** The tighter of the server-wide per-key limit and the key's own (0: none). */
function requestsPerMinuteOf(serverWide: number, own: number | null): number {
  if (own === null) return serverWide;
  return serverWide > 0 ? Math.min(serverWide, own) : own;
}

/**
 * The principal of an API key, from the headers alone: undefined for a key that is unknown, revoked or
 * of an archived project or organization; 401 `api-key-expired` past its expiry; 403 `ip-not-allowed`
 * from an address its allowlist does not cover (`request.ip`, which honours TRUST_PROXY); 429
 * `rate-limited` over its request rate (the tighter of API_KEY_REQUESTS_PER_MINUTE and its own),
 * counted in the database. The IETF RateLimit fields go on `reply` when given.
 */
export async function authenticateApiKeyRequest(
  deps: Pick<AppDependencies, "database" | "config">,
  key: string,
  request: FastifyRequest,
  reply?: FastifyReply,
  options: { readBudgetStop?: boolean } = {},
): Promise<ApiKeyPrincipal | undefined> {
  const authentication = await authenticateApiKey(deps.database.db, key, new Date(), options);
  if (authentication.status === "invalid") return undefined;
  if (authentication.status === "expired") throw new AppError("api-key-expired", API_KEY_EXPIRED);
  const { principal } = authentication;
  const { allowedIps, requestsPerMinute } = principal.rules;
  if (allowedIps && !isIpAllowed(request.ip, allowedIps)) {
    throw new AppError("ip-not-allowed", ipNotAllowedText(request.ip));
  }
  const state = await limitApiKeyRequests(
    deps.database.db,
    principal.apiKeyId,
    requestsPerMinuteOf(deps.config.limits.apiKeyRequestsPerMinute, requestsPerMinute),
  );
  if (state && reply) reply.headers(rateLimitHeaders(state));
  return principal;
}

/** As {@link authenticateApiKeyRequest}, answering 401 `invalid-api-key` for a key that is not valid. */
export async function requireApiKey(
  deps: Pick<AppDependencies, "database" | "config">,
  key: string,
  request: FastifyRequest,
  reply?: FastifyReply,
  options: { readBudgetStop?: boolean } = {},
): Promise<ApiKeyPrincipal> {
  const principal = await authenticateApiKeyRequest(deps, key, request, reply, options);
  if (!principal) throw new AppError("invalid-api-key", API_KEY_NOT_VALID);
  setRequestActor({ kind: "api-key", apiKeyId: principal.apiKeyId });
  return principal;
}

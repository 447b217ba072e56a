import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppConfig } from "../config";
import { AppError } from "../errors";
import { SESSION_COOKIE } from "../modules/auth/session-cookie";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | undefined {
  if (!value || value === "null") return value === "null" ? "null" : undefined;
  return URL.canParse(value) ? new URL(value).origin : "null";
}

/**
 * CSRF protection by origin check (OWASP "verifying origin with standard headers"): browsers always
 * send `Origin` on cross-site POSTs, so a state-changing call that carries cookies must come from our
 * own origin, PUBLIC_URL or a configured trusted origin. API-key calls carry no ambient credentials
 * and are exempt, so neither they nor same-origin browser calls need a token round trip.
 */
export function registerCsrfProtection(app: FastifyInstance, config: AppConfig): void {
  const trusted = new Set<string>(config.trustedOrigins);
  if (config.publicUrl) trusted.add(config.publicUrl);

  const isTrusted = (request: FastifyRequest, origin: string) => {
    if (trusted.has(origin)) return true;
    const own = `${request.protocol}://${request.host}`;
    return URL.canParse(own) && origin === new URL(own).origin;
  };

  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (/^bearer\s/i.test(request.headers.authorization ?? "")) return;

    const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
    if (origin === undefined) {
      // No browser omits both headers on a cross-site POST; a cookie-less client (curl, SDK) may.
      if (request.cookies[SESSION_COOKIE] === undefined) return;
      throw new AppError("csrf-rejected", "This request must come from the console's own origin.");
    }
    if (!isTrusted(request, origin)) {
      throw new AppError("csrf-rejected", "This request must come from the console's own origin.");
    }
  });
}

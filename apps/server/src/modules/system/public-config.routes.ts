import { calls, PRODUCT_NAME } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";

/** What these routes use of the application's dependencies. */
export type PublicConfigRouteDeps = Pick<AppDependencies, "config" | "database">;

export function registerPublicConfigRoutes(app: FastifyInstance, deps: PublicConfigRouteDeps): void {
  const { config } = deps;
  const publicConfig = {
    appEnv: config.appEnv,
    productName: PRODUCT_NAME,
    recaptcha: config.recaptcha
      ? {
          v3SiteKey: config.recaptcha.v3SiteKey,
          v2SiteKey: config.recaptcha.v2SiteKey,
          scriptUrl: config.recaptcha.scriptUrl,
        }
      : null,
    googleClientId: config.google?.clientId ?? null,
    github: config.github
      ? {
          clientId: config.github.clientId,
          authorizeUrl: `${config.github.oauthBaseUrl}/login/oauth/authorize`,
        }
      : null,
    payments: config.stripe
      ? { provider: "stripe" as const, publishableKey: config.stripe.publishableKey }
      : { provider: "sandbox" as const, publishableKey: null },
    devMailbox: !config.isProduction,
  };
  registerCall(app, deps, calls.system.publicConfig, async () => publicConfig);
}

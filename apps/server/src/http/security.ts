import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config";

export type ExtraSources = Partial<
  Record<"scriptSrc" | "styleSrc" | "connectSrc" | "frameSrc" | "imgSrc", string[]>
>;

/** The third-party origins the SPA needs for the providers this deployment has configured. */
export function thirdPartySources(config: AppConfig): ExtraSources {
  const sources: Required<ExtraSources> = {
    scriptSrc: [],
    styleSrc: [],
    connectSrc: [],
    frameSrc: [],
    imgSrc: [],
  };
  if (config.recaptcha) {
    const origin = new URL(config.recaptcha.scriptUrl).origin;
    sources.scriptSrc.push(origin, "https://www.gstatic.com");
    sources.frameSrc.push(origin, "https://recaptcha.google.com");
  }
  if (config.stripe) {
    sources.scriptSrc.push("https://js.stripe.com");
    sources.frameSrc.push("https://js.stripe.com", "https://hooks.stripe.com");
    sources.connectSrc.push("https://api.stripe.com");
  }
  if (config.google) {
    const gsi = "https://accounts.google.com";
    sources.scriptSrc.push(gsi);
    sources.styleSrc.push(gsi);
    sources.connectSrc.push(gsi);
    sources.frameSrc.push(gsi);
  }
  return sources;
}

/**
 * Security headers. The CSP allows only our own scripts; styles may be inline because Mantine writes
 * CSS variables into style elements at run time. Third-party origins (payments, bot check, sign-in
 * providers) are appended by the modules that enable them.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: AppConfig,
  extraSources: ExtraSources = {},
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(extraSources.scriptSrc ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'", ...(extraSources.styleSrc ?? [])],
        imgSrc: ["'self'", "data:", "blob:", ...(extraSources.imgSrc ?? [])],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(extraSources.connectSrc ?? [])],
        frameSrc: ["'self'", ...(extraSources.frameSrc ?? [])],
        mediaSrc: ["'self'", "blob:", "data:"],
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense where production is served over HTTPS.
    strictTransportSecurity: config.isProduction,
    crossOriginEmbedderPolicy: false,
  });
}

import { randomUUID } from "node:crypto";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import type { AppDependencies } from "./app-dependencies";
import { registerCsrfProtection } from "./http/csrf";
import { registerErrorHandling } from "./http/error-handler";
import { registerRateLimiting, registerSecurityHeaders, thirdPartySources } from "./http/security";
import { registerSpa } from "./http/spa";
import { registerApiKeyRoutes } from "./modules/api-keys/api-keys.routes";
import { registerAuthRoutes } from "./modules/auth/auth.routes";
import { registerDevMailboxRoutes } from "./modules/dev/mailbox.routes";
import { registerFeatureRoutes } from "./modules/features/feature-calls.routes";
import { startRequestSweeper } from "./modules/features/sweeper";
import { trainingJobHandlers } from "./modules/features/training";
import { registerHealthRoutes } from "./modules/health/health.routes";
import { registerInvoiceRoutes } from "./modules/invoices/invoices.routes";
import { JobWorker } from "./modules/jobs/job-queue";
import { registerMemberRoutes } from "./modules/members/members.routes";
import { registerOpenApiRoutes } from "./modules/openapi/openapi.routes";
import { registerOrganizationRoutes } from "./modules/organizations/organizations.routes";
import { moneyDeps, registerPaymentRoutes } from "./modules/payments/payments.routes";
import { triggerAutoRechargeIfNeeded } from "./modules/payments/payments.service";
import { registerProjectRoutes } from "./modules/projects/projects.routes";
import { registerPublicConfigRoutes } from "./modules/system/public-config.routes";
import { registerUserRoutes } from "./modules/users/users.routes";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export interface BuildAppOptions {
  /** Pino logger options, or false to silence logs (tests). */
  logger?: boolean | { level: string };
  /** Whether this process works the job queue (default true; tests drain it by hand). */
  runJobs?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    jobWorker: JobWorker;
  }
}

export async function buildApp(
  deps: AppDependencies,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: deps.config.logLevel },
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A caller's request id is kept when it is sane, so logs can be joined across services.
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  registerErrorHandling(app);
  await registerSecurityHeaders(app, deps.config, thirdPartySources(deps.config));
  await app.register(cookie);
  await registerRateLimiting(app);
  registerCsrfProtection(app, deps.config);

  registerHealthRoutes(app, deps);
  registerPublicConfigRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerOrganizationRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerMemberRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerPaymentRoutes(app, deps);
  registerInvoiceRoutes(app, deps);
  const gateway = {
    db: deps.database.db,
    files: deps.files,
    registry: deps.registry,
    prices: deps.prices,
    providerTimeoutMs: deps.config.inference.providerTimeoutMs,
    log: app.log,
    afterCharge: (organizationId: string) =>
      triggerAutoRechargeIfNeeded(moneyDeps(deps, app.log), organizationId),
  };
  registerFeatureRoutes(app, deps, gateway);
  const jobWorker = new JobWorker(deps.database.db, trainingJobHandlers(gateway), app.log);
  if (options.runJobs ?? true) jobWorker.start();
  app.decorate("jobWorker", jobWorker);
  registerDevMailboxRoutes(app, deps);
  registerOpenApiRoutes(app);

  await registerSpa(app, deps.config.webDistDir);

  const sweeper = startRequestSweeper(deps, app.log);
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
    await jobWorker.stop();
    await deps.registry.close();
    await deps.database.close();
  });

  return app;
}

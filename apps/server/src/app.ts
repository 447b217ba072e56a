import { randomUUID } from "node:crypto";
import cookie from "@fastify/cookie";
import { CALL_INTERRUPTED_BY_RESTART } from "@prism/contract";
import Fastify, { type FastifyInstance } from "fastify";
import type { AppDependencies } from "./app-dependencies";
import type { AppConfig, TrustProxy } from "./config";
import { registerCompression } from "./http/compression";
import { registerCsrfProtection } from "./http/csrf";
import { registerErrorHandling } from "./http/error-handler";
import { registerExpectContinue } from "./http/expect-continue";
import { createRequestLogger, registerRequestContext, requestIdMixin } from "./http/request-context";
import { requestLogSerializers } from "./http/request-log";
import { registerRevalidation } from "./http/revalidation";
import { recordRouteMethods } from "./http/route-methods";
import { registerSecurityHeaders, thirdPartySources } from "./http/security";
import { registerSpa } from "./http/spa";
import { registerAlertRoutes } from "./modules/alerts/alerts.routes";
import { registerApiKeyRoutes } from "./modules/api-keys/api-keys.routes";
import { registerAuditRoutes } from "./modules/audit/audit.routes";
import { registerAccountSecurityRoutes } from "./modules/auth/account-security.routes";
import { registerAuthRoutes } from "./modules/auth/auth.routes";
import { registerDevMailboxRoutes } from "./modules/dev/mailbox.routes";
import type { GatewayDeps } from "./modules/features/call-deps";
import { CallDispatcher } from "./modules/features/call-dispatcher";
import { failCall } from "./modules/features/call-failure";
import { registerFeatureRoutes } from "./modules/features/feature-calls.routes";
import { InFlightCalls } from "./modules/features/in-flight-calls";
import { renderCallWebhook } from "./modules/features/request-detail";
import { registerRequestRoutes } from "./modules/features/requests.routes";
import { runClaimedCall } from "./modules/features/submit-call";
import { startRequestSweeper } from "./modules/features/sweeper";
import { trainingJobHandlers } from "./modules/features/training";
import { registerAbsoluteFileUrls } from "./modules/files/absolute-file-urls";
import { registerFileRoutes } from "./modules/files/files.routes";
import { registerHealthRoutes } from "./modules/health/health.routes";
import { registerInvoiceRoutes } from "./modules/invoices/invoices.routes";
import { JobWorker } from "./modules/jobs/job-queue";
import { registerMemberRoutes } from "./modules/members/members.routes";
import { registerMetricsRoutes } from "./modules/metrics/metrics.routes";
import { registerOpenApiRoutes } from "./modules/openapi/openapi.routes";
import { registerOrganizationRoutes } from "./modules/organizations/organizations.routes";
import { moneyDeps, registerPaymentRoutes } from "./modules/payments/payments.routes";
import { startPaymentReconciler, triggerAutoRechargeIfNeeded } from "./modules/payments/recharge.service";
import { registerPlaygroundRoutes } from "./modules/playground/playground.routes";
import { registerProjectRoutes } from "./modules/projects/projects.routes";
import { registerPublicConfigRoutes } from "./modules/system/public-config.routes";
import { registerUsageRoutes } from "./modules/usage/usage.routes";
import { registerUserRoutes } from "./modules/users/users.routes";
import { eventJobHandlers } from "./modules/webhooks/webhook-delivery";
import { registerWebhookRoutes } from "./modules/webhooks/webhooks.routes";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const JOB_LEASE_MS = 10 * 60_000;
/** After the drain's deadline aborts the calls still running, how long they get to refund themselves. */
const SHUTDOWN_UNWIND_MS = 5_000;

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function trusting that many peers counted
 * from the socket: Fastify 5 ignores a bare number (it cannot tell a proxy from a client that reached
 * the server directly), so the operator who sets one asserts that only the proxies reach the server.
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "boolean") return trust;
  if ("hops" in trust) return (_address, hop) => hop < trust.hops;
  return trust.addresses;
}

/**
 * Fastify turns Node's request timeout off (0), so a body sent one byte at a time held its connection
 * open for good. A request must now arrive whole within REQUEST_TIMEOUT_MS (the largest legitimate
 * upload on a slow line); Node answers 408 and closes the connection otherwise, and checks every
 * connection often enough for that limit (each 30 s by default). An idle connection is closed after
 * the longest legitimate silence: a body sent as slowly as allowed, then a call waiting for its model.
 */
function connectionLimits(config: AppConfig) {
  const requestTimeout = config.requestTimeoutMs;
  return {
    requestTimeout,
    // A synchronous call's connection is idle while the call waits in the queue and then runs: it may
    // last as long as the longest wait plus the longest run (after that the call has ended anyway).
    connectionTimeout: requestTimeout + config.inference.queueTimeoutMs + config.inference.providerTimeoutMs,
    http: {
      requestTimeout,
      headersTimeout: Math.min(60_000, requestTimeout),
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
  };
}

export interface BuildAppOptions {
  /** Pino logger options (a stream to write to, for tests reading the log), or false to silence logs. */
  logger?: false | { level: string; stream?: NodeJS.WritableStream };
  /** Whether this process works the job queue (default true; tests drain it by hand). */
  runJobs?: boolean;
  /**
   * How long a webhook delivery waits for its receiver. Production always uses the contract's
   * WEBHOOK_TIMEOUT_MS; a test of the timeout gives a short one rather than wait 10 s.
   */
  webhookTimeoutMs?: number;
}

declare module "fastify" {
  interface FastifyInstance {
    jobWorker: JobWorker;
    /**
     * The graceful stop (SIGTERM): readiness fails and new feature calls get a 503 with Retry-After at
     * once; running calls get SHUTDOWN_TIMEOUT_MS to finish, then are stopped and refunded; the job
     * worker hands its running job back; then the app closes (the server stops listening, the database
     * closes).
     */
    shutdown(): Promise<void>;
  }
}

export async function buildApp(
  deps: AppDependencies,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const logger = options.logger ?? { level: deps.config.logLevel };
  const app = Fastify({
    logger:
      logger === false ? false : { ...logger, serializers: requestLogSerializers, mixin: requestIdMixin },
    childLoggerFactory: createRequestLogger,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...connectionLimits(deps.config),
    // A caller's request id is kept when it is sane, so logs can be joined across services.
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  });

  registerRequestContext(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  registerErrorHandling(app);
  registerExpectContinue(app);
  // Before any route, so that a path served with other methods answers 405 with Allow, not 404.
  const routeMethods = recordRouteMethods(app);
  // Before any route: it applies to the routes registered after it.
  await registerCompression(app);
  registerMetricsRoutes(app, deps);
  registerRevalidation(app);
  await registerSecurityHeaders(app, deps.config, thirdPartySources(deps.config));
  await app.register(cookie);
  registerCsrfProtection(app, deps.config);

  let draining = false;
  registerHealthRoutes(app, deps, { isDraining: () => draining });
  registerPublicConfigRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerAccountSecurityRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerOrganizationRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerMemberRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerPaymentRoutes(app, deps);
  registerInvoiceRoutes(app, deps);
  registerAlertRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerAuditRoutes(app, deps);
  const inFlight = new InFlightCalls();
  // The call queue's side in this process (decision 019): its slots, the calls it claims and runs.
  const dispatcher = new CallDispatcher({
    database: deps.database,
    providers: deps.registry.all,
    runClaimed: async (row, signal) => {
      await runClaimedCall(gateway, row, signal);
    },
    leaseMs: deps.config.inference.callLeaseMs,
    log: app.log,
  });
  const gateway: GatewayDeps = {
    db: deps.database.db,
    files: deps.files,
    registry: deps.registry,
    prices: deps.prices,
    dispatcher,
    providerTimeoutMs: deps.config.inference.providerTimeoutMs,
    organizationQueuedCalls: deps.config.limits.organizationQueuedCalls,
    inFlight,
    log: app.log,
    afterCharge: (organizationId: string) =>
      triggerAutoRechargeIfNeeded(moneyDeps(deps, app.log), organizationId),
    allowPrivateWebhooks: !deps.config.isProduction,
  };
  registerAbsoluteFileUrls(app, deps.config.publicUrl);
  registerFeatureRoutes(app, deps, gateway);
  registerRequestRoutes(app, deps, gateway);
  registerFileRoutes(app, deps);
  registerPlaygroundRoutes(app, deps, gateway);
  registerUsageRoutes(app, deps);
  // A job's lease outlives a model call (it is renewed while the handler runs besides), so no second
  // worker ever picks up a job whose first worker is still waiting on a model server.
  const jobHandlers = {
    ...trainingJobHandlers(gateway),
    ...eventJobHandlers({
      db: deps.database.db,
      mailer: deps.mailer,
      metrics: deps.metrics,
      allowPrivateTargets: !deps.config.isProduction,
      timeoutMs: options.webhookTimeoutMs,
      renderCallWebhook: (requestId, eventType) =>
        renderCallWebhook(deps.database.db, requestId, eventType, deps.config.appOrigin),
    }),
  };
  const jobWorker = new JobWorker(deps.database.db, jobHandlers, app.log, {
    leaseMs: Math.max(JOB_LEASE_MS, 2 * deps.config.inference.providerTimeoutMs),
  });
  const runJobs = options.runJobs ?? true;
  if (runJobs) jobWorker.start();
  const reconciler = runJobs ? startPaymentReconciler(moneyDeps(deps, app.log)) : undefined;
  app.decorate("jobWorker", jobWorker);
  registerDevMailboxRoutes(app, deps);
  registerOpenApiRoutes(app, { registry: deps.registry, publicUrl: deps.config.publicUrl });

  await registerSpa(app, deps.config.webDistDir, routeMethods);

  await dispatcher.start();
  const sweeper = startRequestSweeper(deps, app.log);
  app.decorate("shutdown", async () => {
    draining = true;
    clearInterval(sweeper);
    clearInterval(reconciler);
    const deadlineMs = deps.config.shutdownTimeoutMs;
    app.log.info({ running: inFlight.size, deadlineMs }, "draining: new feature calls are refused");
    const [calls, stragglers] = await Promise.all([
      inFlight.drain(deadlineMs),
      dispatcher.drain(deadlineMs, SHUTDOWN_UNWIND_MS),
      jobWorker.stop({ deadlineMs }),
    ]);
    // Calls that did not even unwind after the abort: refunded here, since this process will not be
    // around to settle them (a settle that still came later would find the refund and fail the call).
    for (const requestId of new Set([...calls.abandoned, ...stragglers])) {
      await failCall(
        deps.database.db,
        requestId,
        { code: "service-unavailable", reason: CALL_INTERRUPTED_BY_RESTART },
        { releaseSlot: true },
      ).catch((error: unknown) =>
        app.log.error({ err: error, requestId }, "could not refund an abandoned call at shutdown"),
      );
    }
    app.log.info(
      { finished: calls.finished, abandoned: calls.abandoned.length + stragglers.length },
      "drained",
    );
    await app.close();
  });
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
    clearInterval(reconciler);
    await jobWorker.stop();
    await dispatcher.close();
    await deps.registry.close();
    await deps.database.close();
  });

  return app;
}

import { NOT_READY_DATABASE, NOT_READY_DRAINING, NOT_READY_FILE_STORE } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";

/** What these routes use of the application's dependencies. */
export type HealthRouteDeps = Pick<AppDependencies, "config" | "database" | "files">;

/** A probe answers within this, whatever a dependency does: a load balancer waits for nobody. */
const CHECK_TIMEOUT_MS = 2_000;

async function withinTimeout(check: () => Promise<void>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process is alive and reaches its database (restart it when not). `/readyz`: it can
 * serve traffic now: database and file store answer and it is not draining for a stop (take it out of
 * the load balancer when not; it may come back by itself).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: HealthRouteDeps,
  lifecycle: { isDraining(): boolean } = { isDraining: () => false },
): void {
  app.get("/healthz", async (request) => {
    try {
      await deps.database.ping();
    } catch (error) {
      request.log.error({ err: error }, "health check: database unreachable");
      throw new AppError("service-unavailable", NOT_READY_DATABASE);
    }
    return { status: "ok", database: deps.database.kind };
  });

  app.get("/readyz", async (request) => {
    if (lifecycle.isDraining()) throw new AppError("service-unavailable", NOT_READY_DRAINING);
    const [database, files] = await Promise.all([
      withinTimeout(() => deps.database.ping()),
      withinTimeout(() => deps.files.check()),
    ]);
    const problems: string[] = [];
    if (database) {
      request.log.error({ err: database }, "readiness: database unreachable");
      problems.push(NOT_READY_DATABASE);
    }
    if (files) {
      request.log.error({ err: files }, "readiness: file store unreachable");
      problems.push(NOT_READY_FILE_STORE);
    }
    if (problems.length > 0) throw new AppError("service-unavailable", problems.join(" "));
    return { status: "ok", database: deps.database.kind, fileStore: deps.config.s3 ? "s3" : "local" };
  });
}

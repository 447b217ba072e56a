import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";

export function registerHealthRoutes(app: FastifyInstance, deps: AppDependencies): void {
  app.get("/healthz", async (request) => {
    try {
      await deps.database.ping();
    } catch (error) {
      request.log.error({ err: error }, "health check: database unreachable");
      throw new AppError("service-unavailable", "The database is unreachable.");
    }
    return { status: "ok", database: deps.database.kind };
  });
}

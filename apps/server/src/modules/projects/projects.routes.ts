import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { archiveProject, createProject, renameProject } from "./projects.service";

export function registerProjectRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.projects.create, ({ user, body }) =>
    createProject(db, user.userId, body.organizationId, body.name),
  );

  registerCall(app, deps, calls.projects.update, async ({ user, body }) => {
    await renameProject(db, user.userId, body.projectId, body.name);
    return {};
  });

  registerCall(app, deps, calls.projects.delete, async ({ user, body }) => {
    await archiveProject(db, user.userId, body.projectId);
    return {};
  });
}

import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { archiveProject, createProject, renameProject } from "./projects.service";

/** What these routes use of the application's dependencies. */
export type ProjectsRouteDeps = Pick<AppDependencies, "config" | "database">;

export function registerProjectRoutes(app: FastifyInstance, deps: ProjectsRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.projects.create, ({ user, membership, body }) =>
    createProject(db, user.userId, membership, body.name),
  );

  registerCall(app, deps, calls.projects.update, async ({ project, body }) => {
    await renameProject(db, project, body.name);
    return {};
  });

  registerCall(app, deps, calls.projects.delete, async ({ project, membership }) => {
    await archiveProject(db, project, membership);
    return {};
  });
}

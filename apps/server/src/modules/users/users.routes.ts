import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { getUserInfo } from "./users.service";

export function registerUserRoutes(app: FastifyInstance, deps: AppDependencies): void {
  registerCall(app, deps, calls.users.me, async ({ user, deps }) =>
    getUserInfo(deps.database.db, user.userId),
  );
}

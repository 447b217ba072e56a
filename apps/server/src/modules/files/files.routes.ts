import { FEATURE_CALL_ACCESS } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { authenticateApiKeyRequest, bearerKeyOf } from "../../http/api-key-auth";
import { isValidFileKey } from "../../providers/storage/file-store";
import { authorizeProject, refuseAsNotFound } from "../access/access.service";
import { authenticateSessionToken } from "../auth/session.service";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { isThumbnailKey, readThumbnail } from "./thumbnails";

/** What these routes use of the application's dependencies. */
export type FilesRouteDeps = Pick<AppDependencies, "config" | "database" | "files">;

/**
 * Stored inputs and results. The URL's random part is unguessable, and it is still checked: a file
 * is served only to its project's API keys and to members who may use that project.
 */
export function registerFileRoutes(app: FastifyInstance, deps: FilesRouteDeps): void {
  const db = deps.database.db;
  app.get<{ Params: { organizationId: string; projectId: string; name: string } }>(
    "/v1/files/:organizationId/:projectId/:name",
    async (request, reply) => {
      const { organizationId, projectId, name } = request.params;
      const key = `${organizationId}/${projectId}/${name}`;
      const notFound = new AppError("not-found", "File not found.");
      if (!isValidFileKey(key)) throw notFound;
      const bearer = bearerKeyOf(request);
      if (bearer) {
        const principal = await authenticateApiKeyRequest(deps, bearer, request, reply);
        if (!principal || principal.projectId !== projectId) throw notFound;
      } else {
        const user = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
        if (!user) throw notFound;
        const { project } = await authorizeProject(
          db,
          user.userId,
          projectId,
          FEATURE_CALL_ACCESS.permission,
        ).catch(refuseAsNotFound(notFound));
        if (project.organizationId !== organizationId) throw notFound;
      }
      const stored = isThumbnailKey(key) ? await readThumbnail(deps.files, key) : await deps.files.get(key);
      if (!stored) throw notFound;
      return reply
        .type(stored.contentType)
        .header("cache-control", "private, no-cache")
        .header("x-content-type-options", "nosniff")
        .send(stored.data);
    },
  );
}

import type { CallAccess, CallDefinition } from "@prism/contract";
import { SIGN_IN_REQUIRED } from "@prism/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../app-dependencies";
import { AppError } from "../errors";
import {
  authorizeOrganization,
  authorizeProject,
  type Membership,
  NOT_FOUND_PROJECT,
  requireProjectsOfMembership,
} from "../modules/access/access.service";
import type { ApiKeyPrincipal } from "../modules/api-keys/api-key-runtime.service";
import {
  type AuthenticatedUser,
  authenticateSessionToken,
  requireRecentReauthentication,
} from "../modules/auth/session.service";
import { SESSION_COOKIE } from "../modules/auth/session-cookie";
import { bearerKeyOf, requireApiKey } from "./api-key-auth";
import { setRequestActor } from "./request-context";

type ActiveProject = Awaited<ReturnType<typeof authorizeProject>>["project"];

/** What the declaration's gate found: the membership of the named organization, and the named project. */
export interface TenantOf<A extends CallAccess> {
  membership: A extends { scope: "organization" | "organization-projects" | "project" }
    ? Membership
    : undefined;
  project: A extends { scope: "project" } ? ActiveProject : undefined;
}

/** Who makes a call: nobody signed in (public calls), a signed-in user, or an API key (its own project only). */
export type Caller<A extends CallAccess = CallAccess> =
  | { kind: "anonymous" }
  | ({ kind: "user"; user: AuthenticatedUser } & TenantOf<A>)
  | { kind: "api-key"; key: ApiKeyPrincipal };

/** The signed-in user of a request's session cookie, or 401 `unauthenticated`. */
export async function requireSessionUser(
  deps: Pick<AppDependencies, "database">,
  request: FastifyRequest,
): Promise<AuthenticatedUser> {
  const user = await authenticateSessionToken(deps.database.db, request.cookies[SESSION_COOKIE]);
  if (!user) throw new AppError("unauthenticated", SIGN_IN_REQUIRED);
  setRequestActor({ kind: "user", userId: user.userId });
  return user;
}

/**
 * The one place a contract call's declaration (`auth`, `apiKey`, `requiresReauthentication`, `access`)
 * becomes checks, run before the handler: who calls (session cookie or, where the call allows it, an
 * API key), a recent sign-in proof where the call needs one, and the tenant the request names with the
 * declared right. The caller is known before the body is read (a 401 comes before a 400), and the
 * tenant after it: `parseBody` validates the request, whose ids the declaration names.
 */
export async function resolveCaller<C extends CallDefinition, B>(
  deps: Pick<AppDependencies, "database" | "config">,
  call: C,
  request: FastifyRequest,
  reply: FastifyReply,
  parseBody: () => B,
): Promise<{ caller: Caller<C["access"]>; body: B }> {
  if (call.auth === "public") return { caller: { kind: "anonymous" }, body: parseBody() };
  const access: CallAccess = call.access;
  const bearer = call.apiKey === true ? bearerKeyOf(request) : undefined;
  if (bearer !== undefined) {
    const key = await requireApiKey(deps, bearer, request, reply);
    const body = parseBody();
    // A key reaches its own project alone; another project's id is one that does not exist.
    if (access.scope === "project" && projectIdOf(body) !== key.projectId) {
      throw new AppError("not-found", NOT_FOUND_PROJECT);
    }
    return { caller: { kind: "api-key", key }, body };
  }
  const user = await requireSessionUser(deps, request);
  if (call.requiresReauthentication) requireRecentReauthentication(user);
  const db = deps.database.db;
  const body = parseBody();
  const fields = (body ?? {}) as { organizationId?: string; projectId?: string; projectIds?: string[] };
  switch (access.scope) {
    case "organization":
    case "organization-projects": {
      const membership = await authorizeOrganization(
        db,
        user.userId,
        fields.organizationId ?? "",
        access.permission,
      );
      if (access.scope === "organization-projects") {
        requireProjectsOfMembership(membership, fields.projectIds ?? []);
      }
      return { caller: { kind: "user", user, membership } as Caller<C["access"]>, body };
    }
    case "project": {
      const { project, membership } = await authorizeProject(
        db,
        user.userId,
        projectIdOf(body),
        access.permission,
      );
      return { caller: { kind: "user", user, membership, project } as Caller<C["access"]>, body };
    }
    default:
      // account, record and visible-projects calls find the caller's own things themselves.
      return { caller: { kind: "user", user } as Caller<C["access"]>, body };
  }
}

function projectIdOf(body: unknown): string {
  return (body as { projectId?: string } | undefined)?.projectId ?? "";
}

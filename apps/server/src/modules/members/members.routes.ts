import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { authenticateSessionToken } from "../auth/session.service";
import { SESSION_COOKIE } from "../auth/session-cookie";
import {
  answerInvitation,
  checkInvitation,
  editMemberPermissions,
  inviteMembers,
  listMembers,
  removeMember,
  revokeInvitation,
} from "./members.service";

/** What these routes use of the application's dependencies. */
export type MembersRouteDeps = Pick<AppDependencies, "config" | "database" | "mailer">;

export function registerMemberRoutes(app: FastifyInstance, deps: MembersRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.members.list, ({ membership }) => listMembers(db, membership));

  registerCall(app, deps, calls.members.invite, async ({ user, membership, body }) => {
    await inviteMembers(deps, user, membership, body, deps.config.appOrigin);
    return {};
  });

  registerCall(app, deps, calls.members.checkInvitation, async ({ body, request }) => {
    const signedIn = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
    return checkInvitation(db, body.invitationId, signedIn?.email);
  });

  registerCall(app, deps, calls.members.confirmInvitation, ({ user, body }) =>
    answerInvitation(db, user, body.invitationId, body.confirmed),
  );

  registerCall(app, deps, calls.members.revokeInvitation, async ({ body }) => {
    await revokeInvitation(db, body.organizationId, body.invitationId);
    return {};
  });

  registerCall(app, deps, calls.members.remove, async ({ user, membership, body }) => {
    await removeMember(db, user.userId, membership, body.userIdToRemove);
    return {};
  });

  registerCall(app, deps, calls.members.editPermissions, async ({ user, membership, body }) => {
    await editMemberPermissions(db, user.userId, membership, body);
    return {};
  });
}

import { calls } from "@prism/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
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

export function registerMemberRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;
  /** Links in mails point at the public origin when configured, else at the origin the inviter used. */
  const linkBase = (request: FastifyRequest) =>
    deps.config.publicUrl ?? `${request.protocol}://${request.host}`;

  registerCall(app, deps, calls.members.list, ({ user, body }) =>
    listMembers(db, user.userId, body.organizationId),
  );

  registerCall(app, deps, calls.members.invite, async ({ user, body, request }) => {
    await inviteMembers(deps, user, body, linkBase(request));
    return {};
  });

  registerCall(app, deps, calls.members.checkInvitation, async ({ body, request }) => {
    const signedIn = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
    return checkInvitation(db, body.invitationId, signedIn?.email);
  });

  registerCall(app, deps, calls.members.confirmInvitation, ({ user, body }) =>
    answerInvitation(db, user, body.invitationId, body.confirmed),
  );

  registerCall(app, deps, calls.members.revokeInvitation, async ({ user, body }) => {
    await revokeInvitation(db, user.userId, body.organizationId, body.invitationId);
    return {};
  });

  registerCall(app, deps, calls.members.remove, async ({ user, body }) => {
    await removeMember(db, user.userId, body.organizationId, body.userIdToRemove);
    return {};
  });

  registerCall(app, deps, calls.members.editPermissions, async ({ user, body }) => {
    await editMemberPermissions(db, user.userId, body);
    return {};
  });
}

import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { passwordChangedMail } from "../../providers/mail/templates";
import { sendSecurityMail } from "../auth/security-mails";
import { endAllSessions } from "../auth/session.service";
import { getUserInfo } from "./users.service";
import { updateUser } from "./users.store";

/** What these routes use of the application's dependencies. */
export type UsersRouteDeps = Pick<AppDependencies, "config" | "database" | "mailer" | "passwords">;

export function registerUserRoutes(app: FastifyInstance, deps: UsersRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.users.me, async ({ user }) => getUserInfo(db, user.userId));

  registerCall(app, deps, calls.users.updateProfile, async ({ user, body }) => {
    await updateUser(db, user.userId, { firstName: body.firstName, lastName: body.lastName });
    return {};
  });

  // A password change keeps this session and ends every other one; the call itself needs a recent
  // sign-in proof (the current password, a code or a passkey: decision 020), and the owner is mailed.
  registerCall(app, deps, calls.users.changePassword, async ({ user, body, request }) => {
    const passwordHash = await deps.passwords.hash(body.password);
    await db.transaction(async (tx) => {
      await updateUser(tx, user.userId, { passwordHash });
      await endAllSessions(tx, user.userId, user.sessionId);
    });
    await sendSecurityMail(deps, request, user.userId, (account, origin) =>
      passwordChangedMail(account.email, account.firstName, origin, `${deps.config.appOrigin}/login`),
    );
    return {};
  });
}

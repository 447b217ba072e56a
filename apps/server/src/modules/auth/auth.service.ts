import {
  GITHUB_EMAIL_NOT_FOUND,
  GOOGLE_EMAIL_NOT_FOUND,
  INVALID_PASSWORD,
  INVALID_VERIFICATION_CODE,
  LOGIN_USER_NOT_FOUND,
  RESET_USER_NOT_FOUND,
  USER_ALREADY_ACTIVE,
  USER_ALREADY_EXISTS,
  VERIFICATION_CODE_NOT_FOUND,
  VERIFICATION_CODE_RESENT,
  VERIFICATION_CODE_TTL_MS,
} from "@prism/contract";
import type { AppDependencies } from "../../app-dependencies";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { passwordResetMail, verificationCodeMail } from "../../providers/mail/templates";
import type { OAuthProfile } from "../../providers/oauth/google";
import { verifyPasswordOrDummy } from "../../providers/password-hashing";
import { isLiveInvitationFor } from "../members/members.service";
import { ensureOwnOrganization } from "../organizations/organizations.service";
import {
  findUserByEmail,
  insertUser,
  insertUserUnlessEmailTaken,
  updatePendingUser,
  updateUser,
} from "../users/users.store";
import { findOAuthUserId, linkOAuthAccount } from "./auth.store";
import {
  type CodeAttempt,
  consumeVerificationCode,
  deleteVerificationCodes,
  issueVerificationCode,
} from "./verification-codes.store";

const CODE_VALID_MINUTES = VERIFICATION_CODE_TTL_MS / 60_000;

type Deps = Pick<AppDependencies, "database" | "mailer" | "passwords">;

/** Mails a sign-up code bound to one attempt: the browser that asked and the password it chose. */
async function mailVerificationCode(
  deps: Deps,
  user: { id: string; email: string; firstName: string },
  attempt: CodeAttempt,
) {
  const code = await issueVerificationCode(deps.database.db, user.id, "verify-email", attempt);
  await deps.mailer.send(verificationCodeMail(user.email, user.firstName, code, CODE_VALID_MINUTES));
}

/**
 * Marks the user active and, on their very first activation, gives them an organization of their own
 * with one project (so a new account lands on a usable console). Idempotent: a user who already has
 * a membership (an earlier activation) gets nothing new. A newcomer who signs up from an invitation
 * addressed to them (`invitationId`, the browser's invitation cookie) gets none either: they are about
 * to be asked to join the inviting organization, and declining gives them one then. Every other
 * pending sign-up attempt ends here: its code must not change the password of an account that is now
 * in use.
 */
async function activateUser(
  tx: Executor,
  user: { id: string; firstName: string; email: string },
  invitationId: string | undefined,
): Promise<void> {
  await updateUser(tx, user.id, { isActive: true });
  await deleteVerificationCodes(tx, user.id, "verify-email");
  if (await isLiveInvitationFor(tx, invitationId, user.email)) return;
  await ensureOwnOrganization(tx, user);
}

/**
 * Starts (or repeats) a sign-up in the browser whose attempt hash is given. The account stays inactive
 * and its password unusable until a code confirms it; the code mailed here confirms only this attempt,
 * in this browser, with this password. So a stranger who signs up with someone else's address, before
 * or after them, can neither keep nor impose a password: the owner's own code activates the owner's
 * attempt, and the stranger's code, which only the owner's mailbox receives, fails in the owner's browser.
 */
export async function signUp(
  deps: Deps,
  input: { firstName: string; lastName: string; email: string; password: string },
  attemptHash: string,
): Promise<void> {
  const db = deps.database.db;
  const existing = await findUserByEmail(db, input.email);
  if (existing?.isActive) {
    throw new AppError("user-already-exists", USER_ALREADY_EXISTS);
  }
  const passwordHash = await deps.passwords.hash(input.password);
  const attempt: CodeAttempt = {
    attemptHash,
    passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
  };
  let user: { id: string; email: string; firstName: string };
  if (existing) {
    // An unverified sign-up may be repeated (lost mail, a typo): the latest password is the one a
    // later sign-in of the still unverified account checks before mailing a new code.
    await updateUser(db, existing.id, { firstName: input.firstName, lastName: input.lastName, passwordHash });
    user = { id: existing.id, email: existing.email, firstName: input.firstName };
  } else {
    const row = await insertUserUnlessEmailTaken(db, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
    });
    // Lost a race with a parallel sign-up of the same address.
    if (!row) throw new AppError("user-already-exists", USER_ALREADY_EXISTS);
    user = row;
  }
  await mailVerificationCode(deps, user, attempt);
}

/**
 * Activates the account with the attempt this browser started (null: it started none), taking that
 * attempt's password and names. A code of any other attempt is an invalid code.
 */
export async function confirmEmail(
  deps: Deps,
  input: { email: string; verificationCode: string },
  attemptHash: string | null,
  invitationId?: string,
): Promise<string> {
  const db = deps.database.db;
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new AppError("user-not-found", LOGIN_USER_NOT_FOUND);
  if (user.isActive) throw new AppError("user-already-active", USER_ALREADY_ACTIVE);
  const check = await consumeVerificationCode(
    db,
    user.id,
    "verify-email",
    input.verificationCode,
    attemptHash,
  );
  if (check.result === "missing")
    throw new AppError("verification-code-not-found", VERIFICATION_CODE_NOT_FOUND);
  if (check.result === "invalid") throw new AppError("invalid-verification-code", INVALID_VERIFICATION_CODE);
  const { attempt } = check;
  await db.transaction(async (tx) => {
    // Conditional on the account still being pending: of two confirmations racing, one sets the password.
    const claimed = await updatePendingUser(tx, user.id, {
      passwordHash: attempt.passwordHash,
      ...(attempt.firstName !== null ? { firstName: attempt.firstName } : {}),
      ...(attempt.lastName !== null ? { lastName: attempt.lastName } : {}),
    });
    if (!claimed) throw new AppError("user-already-active", USER_ALREADY_ACTIVE);
    await activateUser(
      tx,
      { id: user.id, email: user.email, firstName: attempt.firstName ?? user.firstName },
      invitationId,
    );
  });
  return user.id;
}

/**
 * Signs in. An unknown email and an account without a password cost one password verification like
 * any other sign-in, so response times do not reveal which accounts exist. An unverified account with
 * the right password gets a new code, bound to this browser's attempt and to that password.
 */
export async function logIn(
  deps: Deps,
  input: { email: string; password: string },
  startAttempt: () => string,
): Promise<string> {
  const user = await findUserByEmail(deps.database.db, input.email);
  const passwordMatches = await verifyPasswordOrDummy(deps.passwords, user?.passwordHash, input.password);
  if (!user) throw new AppError("user-not-found", LOGIN_USER_NOT_FOUND);
  if (!passwordMatches) throw new AppError("invalid-credentials", INVALID_PASSWORD);
  if (!user.isActive) {
    await mailVerificationCode(deps, user, {
      attemptHash: startAttempt(),
      passwordHash: user.passwordHash,
      firstName: null,
      lastName: null,
    });
    throw new AppError(
      "user-not-active",
      `Your email address is not verified yet. ${VERIFICATION_CODE_RESENT}`,
    );
  }
  return user.id;
}

export async function requestPasswordReset(deps: Deps, input: { email: string }): Promise<void> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) throw new AppError("user-not-found", RESET_USER_NOT_FOUND);
  const code = await issueVerificationCode(deps.database.db, user.id, "reset-password");
  await deps.mailer.send(passwordResetMail(user.email, user.firstName, code, CODE_VALID_MINUTES));
}

/**
 * Sets a new password from a mailed reset code. The code proves the mailbox, so an account that was
 * never verified becomes active too. Every session of the user ends: whoever knew the old password
 * is signed out everywhere.
 */
export async function resetPassword(
  deps: Deps,
  input: { email: string; password: string; resetCode: string },
  endAllSessions: (tx: Executor, userId: string) => Promise<void>,
  invitationId?: string,
): Promise<void> {
  const db = deps.database.db;
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new AppError("user-not-found", RESET_USER_NOT_FOUND);
  const check = await consumeVerificationCode(db, user.id, "reset-password", input.resetCode);
  if (check.result !== "valid") throw new AppError("invalid-reset-code", INVALID_VERIFICATION_CODE);
  const passwordHash = await deps.passwords.hash(input.password);
  await db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    if (!user.isActive) await activateUser(tx, user, invitationId);
    await endAllSessions(tx, user.id);
  });
}

/**
 * Google / GitHub sign-in: a known identity signs in its user; otherwise the verified email links to
 * an existing account (the provider vouches for the mailbox) or creates a new, active one. A pending
 * account is activated without a password: the provider proves the mailbox, not the password a pending
 * sign-up chose, which may be a stranger's. The owner can set one through "forgot password".
 */
export async function signInWithOAuth(
  deps: Deps,
  profile: OAuthProfile,
  invitationId?: string,
): Promise<string> {
  const db = deps.database.db;
  const linkedUserId = await findOAuthUserId(db, profile);
  if (linkedUserId) return linkedUserId;

  if (!profile.email) {
    throw new AppError(
      "email-credentials-not-found",
      profile.provider === "google" ? GOOGLE_EMAIL_NOT_FOUND : GITHUB_EMAIL_NOT_FOUND,
    );
  }
  const email = profile.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email);
    if (!user) {
      user = await insertUser(tx, {
        email,
        firstName: profile.firstName || email.split("@")[0] || "New",
        lastName: profile.lastName,
        passwordHash: null,
      });
    }
    if (!user.isActive) {
      await updateUser(tx, user.id, { passwordHash: null });
      await activateUser(tx, user, invitationId);
    }
    await linkOAuthAccount(tx, {
      provider: profile.provider,
      providerUserId: profile.subject,
      userId: user.id,
    });
    return user.id;
  });
}

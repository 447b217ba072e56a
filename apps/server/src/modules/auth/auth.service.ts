import { VERIFICATION_CODE_TTL_MS } from "@prism/contract";
import { and, eq } from "drizzle-orm";
import type { AppDependencies } from "../../app-dependencies";
import type { Executor } from "../../db/client";
import { oauthAccounts, users } from "../../db/schema";
import { AppError } from "../../errors";
import { passwordResetMail, verificationCodeMail } from "../../providers/mail/templates";
import type { OAuthProfile } from "../../providers/oauth/google";
import { insertOrganizationWithOwner } from "../organizations/organizations.store";
import { findUserByEmail, hasAnyMembership, updateUser } from "../users/users.store";
import { hashPassword, verifyPassword } from "./password-hashing";
import { consumeVerificationCode, issueVerificationCode } from "./verification-codes";

const CODE_VALID_MINUTES = VERIFICATION_CODE_TTL_MS / 60_000;

type Deps = Pick<AppDependencies, "database" | "mailer">;

async function mailVerificationCode(deps: Deps, user: { id: string; email: string; firstName: string }) {
  const code = await issueVerificationCode(deps.database.db, user.id, "verify-email");
  await deps.mailer.send(verificationCodeMail(user.email, user.firstName, code, CODE_VALID_MINUTES));
}

/**
 * Marks the user active and, on their very first activation, gives them an organization of their own
 * with one project (so a new account lands on a usable console). Idempotent: a user who already has
 * a membership (an invitation, an earlier activation) gets nothing new.
 */
async function activateUser(tx: Executor, user: { id: string; firstName: string }): Promise<void> {
  await updateUser(tx, user.id, { isActive: true });
  if (await hasAnyMembership(tx, user.id)) return;
  await insertOrganizationWithOwner(tx, { name: `${user.firstName}'s Organization`, ownerId: user.id });
}

export async function signUp(
  deps: Deps,
  input: { firstName: string; lastName: string; email: string; password: string },
): Promise<void> {
  const db = deps.database.db;
  const existing = await findUserByEmail(db, input.email);
  if (existing?.isActive) {
    throw new AppError("user-already-exists", "The email already exists. Please select a different one");
  }
  const passwordHash = await hashPassword(input.password);
  let user: { id: string; email: string; firstName: string };
  if (existing) {
    // An unverified sign-up may be repeated (lost mail, a typo) and the latest details win. That also
    // defeats pre-registration: a stranger who signed up with someone else's address first cannot keep
    // their password once the owner signs up; only the mailbox owner can ever activate the account.
    await updateUser(db, existing.id, { firstName: input.firstName, lastName: input.lastName, passwordHash });
    user = { id: existing.id, email: existing.email, firstName: input.firstName };
  } else {
    const inserted = await db
      .insert(users)
      .values({ email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    const row = inserted[0];
    // Lost a race with a parallel sign-up of the same address.
    if (!row)
      throw new AppError("user-already-exists", "The email already exists. Please select a different one");
    user = row;
  }
  await mailVerificationCode(deps, user);
}

export async function confirmEmail(
  deps: Deps,
  input: { email: string; verificationCode: string },
): Promise<string> {
  const db = deps.database.db;
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new AppError("user-not-found", "We cannot find the provided email on our database.");
  if (user.isActive) {
    throw new AppError(
      "user-already-active",
      "This account is already verified. Please go back and sign in.",
    );
  }
  const check = await consumeVerificationCode(db, user.id, "verify-email", input.verificationCode);
  if (check === "missing") {
    throw new AppError(
      "verification-code-not-found",
      "No active verification code found. Please go back and generate a new one.",
    );
  }
  if (check === "invalid") throw new AppError("invalid-verification-code", "Invalid verification code");
  await db.transaction((tx) => activateUser(tx, user));
  return user.id;
}

export async function logIn(deps: Deps, input: { email: string; password: string }): Promise<string> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) throw new AppError("user-not-found", "We cannot find the provided email on our database.");
  const passwordMatches =
    user.passwordHash !== null && (await verifyPassword(user.passwordHash, input.password));
  if (!passwordMatches) throw new AppError("invalid-credentials", "Invalid password");
  if (!user.isActive) {
    await mailVerificationCode(deps, user);
    throw new AppError(
      "user-not-active",
      "Your email address is not verified yet. We have sent you a new verification code.",
    );
  }
  return user.id;
}

export async function requestPasswordReset(deps: Deps, input: { email: string }): Promise<void> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) throw new AppError("user-not-found", "Email address not found.");
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
): Promise<void> {
  const db = deps.database.db;
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new AppError("user-not-found", "Email address not found.");
  const check = await consumeVerificationCode(db, user.id, "reset-password", input.resetCode);
  if (check !== "valid") throw new AppError("invalid-reset-code", "Invalid verification code");
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    if (!user.isActive) await activateUser(tx, user);
    await endAllSessions(tx, user.id);
  });
}

/**
 * Google / GitHub sign-in: a known identity signs in its user; otherwise the verified email links to
 * an existing account (the provider vouches for the mailbox) or creates a new, active one.
 */
export async function signInWithOAuth(deps: Deps, profile: OAuthProfile): Promise<string> {
  const db = deps.database.db;
  const linked = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(
      and(eq(oauthAccounts.provider, profile.provider), eq(oauthAccounts.providerUserId, profile.subject)),
    )
    .limit(1);
  if (linked[0]) return linked[0].userId;

  const providerName = profile.provider === "google" ? "Google" : "GitHub";
  if (!profile.email) {
    throw new AppError(
      "email-credentials-not-found",
      `Unable to retrieve email from ${providerName}. Please try again or contact support.`,
    );
  }
  const email = profile.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email);
    if (!user) {
      const [inserted] = await tx
        .insert(users)
        .values({
          email,
          firstName: profile.firstName || email.split("@")[0] || "New",
          lastName: profile.lastName,
          passwordHash: null,
        })
        .returning();
      if (!inserted) throw new Error("user insert returned no row");
      user = inserted;
    }
    if (!user.isActive) await activateUser(tx, user);
    await tx
      .insert(oauthAccounts)
      .values({ provider: profile.provider, providerUserId: profile.subject, userId: user.id })
      .onConflictDoNothing();
    return user.id;
  });
}

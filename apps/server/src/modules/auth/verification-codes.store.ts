import { createHash, randomInt } from "node:crypto";
import {
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_TTL_MS,
} from "@prism/contract";
import { and, eq, lte, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type VerificationPurpose, verificationCodes } from "../../db/schema";

function hashCode(userId: string, purpose: VerificationPurpose, code: string): string {
  return createHash("sha256").update(`${userId}:${purpose}:${code}`).digest("hex");
}

/**
 * What a sign-up code is bound to: the browser that asked for it (the hash of its sign-up cookie) and
 * the password chosen there. Reset codes have none: the reset form sets the password with the code.
 */
export interface CodeAttempt {
  attemptHash: string;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
}

const NO_ATTEMPT = "";

/**
 * Issues a fresh code, replacing any earlier one of the same purpose and attempt; returns the plain
 * code to mail. Expired codes of the user and purpose are swept on the way.
 */
export async function issueVerificationCode(
  db: Executor,
  userId: string,
  purpose: VerificationPurpose,
  attempt?: CodeAttempt,
  now = new Date(),
): Promise<string> {
  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, "0");
  const values = {
    userId,
    purpose,
    attemptHash: attempt?.attemptHash ?? NO_ATTEMPT,
    passwordHash: attempt?.passwordHash ?? null,
    firstName: attempt?.firstName ?? null,
    lastName: attempt?.lastName ?? null,
    codeHash: hashCode(userId, purpose, code),
    failedAttempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + VERIFICATION_CODE_TTL_MS),
  };
  await db
    .delete(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, purpose),
        lte(verificationCodes.expiresAt, now),
      ),
    );
  await db
    .insert(verificationCodes)
    .values(values)
    .onConflictDoUpdate({
      target: [verificationCodes.userId, verificationCodes.purpose, verificationCodes.attemptHash],
      set: values,
    });
  return code;
}

export type CodeCheck =
  | { result: "valid"; attempt: CodeAttempt }
  | { result: "invalid" }
  | { result: "missing" };

/**
 * Checks a code of one attempt (for reset codes, the user's only one; null: the browser started none). "missing" covers no code, an
 * expired one and one locked by too many wrong guesses; a wrong guess is counted with a conditional
 * update so parallel guesses cannot exceed the limit. A valid code is consumed (deleted) in the same
 * statement that proves it, so it works only once. A code of another attempt, or any code typed in a
 * browser that started no attempt while another attempt is live, is "invalid": it can never match.
 */
export async function consumeVerificationCode(
  db: Executor,
  userId: string,
  purpose: VerificationPurpose,
  code: string,
  attemptHash: string | null = NO_ATTEMPT,
  now = new Date(),
): Promise<CodeCheck> {
  const liveForUser = and(
    eq(verificationCodes.userId, userId),
    eq(verificationCodes.purpose, purpose),
    sql`${verificationCodes.expiresAt} > ${now}`,
    sql`${verificationCodes.failedAttempts} < ${VERIFICATION_CODE_MAX_ATTEMPTS}`,
  );
  if (attemptHash === null) {
    // A browser that started no attempt holds no code; any code it types is someone else's.
    const any = await db
      .select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(liveForUser)
      .limit(1);
    return any.length > 0 ? { result: "invalid" } : { result: "missing" };
  }
  const live = and(liveForUser, eq(verificationCodes.attemptHash, attemptHash));
  const [consumed] = await db
    .delete(verificationCodes)
    .where(and(live, eq(verificationCodes.codeHash, hashCode(userId, purpose, code))))
    .returning({
      attemptHash: verificationCodes.attemptHash,
      passwordHash: verificationCodes.passwordHash,
      firstName: verificationCodes.firstName,
      lastName: verificationCodes.lastName,
    });
  if (consumed) return { result: "valid", attempt: consumed };
  const counted = await db
    .update(verificationCodes)
    .set({ failedAttempts: sql`${verificationCodes.failedAttempts} + 1` })
    .where(live)
    .returning({ id: verificationCodes.id });
  if (counted.length > 0) return { result: "invalid" };
  const others = await db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(and(liveForUser, ne(verificationCodes.attemptHash, attemptHash)))
    .limit(1);
  return others.length > 0 ? { result: "invalid" } : { result: "missing" };
}

/** Drops every code of the purpose: an activated account has no pending sign-up attempts left. */
export async function deleteVerificationCodes(
  db: Executor,
  userId: string,
  purpose: VerificationPurpose,
): Promise<void> {
  await db
    .delete(verificationCodes)
    .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose)));
}

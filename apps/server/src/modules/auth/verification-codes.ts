import { createHash, randomInt } from "node:crypto";
import {
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_TTL_MS,
} from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type VerificationPurpose, verificationCodes } from "../../db/schema";

function hashCode(userId: string, purpose: VerificationPurpose, code: string): string {
  return createHash("sha256").update(`${userId}:${purpose}:${code}`).digest("hex");
}

/** Issues a fresh code, replacing any earlier one of the same purpose; returns the plain code to mail. */
export async function issueVerificationCode(
  db: Executor,
  userId: string,
  purpose: VerificationPurpose,
  now = new Date(),
): Promise<string> {
  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, "0");
  const values = {
    userId,
    purpose,
    codeHash: hashCode(userId, purpose, code),
    failedAttempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + VERIFICATION_CODE_TTL_MS),
  };
  await db
    .insert(verificationCodes)
    .values(values)
    .onConflictDoUpdate({ target: [verificationCodes.userId, verificationCodes.purpose], set: values });
  return code;
}

export type CodeCheck = "valid" | "missing" | "invalid";

/**
 * Checks a code. "missing" covers no code, an expired one and one locked by too many wrong guesses;
 * a wrong guess is counted with a conditional update so parallel guesses cannot exceed the limit.
 * A valid code is consumed (deleted) in the same statement that proves it, so it works only once.
 */
export async function consumeVerificationCode(
  db: Executor,
  userId: string,
  purpose: VerificationPurpose,
  code: string,
  now = new Date(),
): Promise<CodeCheck> {
  const live = and(
    eq(verificationCodes.userId, userId),
    eq(verificationCodes.purpose, purpose),
    sql`${verificationCodes.expiresAt} > ${now}`,
    sql`${verificationCodes.failedAttempts} < ${VERIFICATION_CODE_MAX_ATTEMPTS}`,
  );
  const consumed = await db
    .delete(verificationCodes)
    .where(and(live, eq(verificationCodes.codeHash, hashCode(userId, purpose, code))))
    .returning({ id: verificationCodes.id });
  if (consumed.length > 0) return "valid";
  const counted = await db
    .update(verificationCodes)
    .set({ failedAttempts: sql`${verificationCodes.failedAttempts} + 1` })
    .where(live)
    .returning({ id: verificationCodes.id });
  return counted.length > 0 ? "invalid" : "missing";
}

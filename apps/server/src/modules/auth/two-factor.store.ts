import { and, eq, gt, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { pendingSignIns, recoveryCodes, userTotp } from "../../db/schema";

/** The user's authenticator secret (sealed, see totp-secret-box) once confirmed, else undefined. */
export async function findConfirmedTotp(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt)))
    .limit(1);
  return row;
}

/** The user's secret, confirmed or pending. */
export async function findTotp(db: Executor, userId: string) {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row;
}

export async function countRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`cast(count(*) as integer)` })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
  return row?.count ?? 0;
}

/**
 * Writes a pending secret (sealed), replacing an unconfirmed one; answers false when a confirmed secret
 * is there (a parallel enable that won keeps its secret).
 */
export async function writePendingTotp(db: Executor, userId: string, secret: string): Promise<boolean> {
  const written = await db
    .insert(userTotp)
    .values({ userId, secret })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secret, lastUsedStep: null, createdAt: new Date() },
      setWhere: isNull(userTotp.confirmedAt),
    })
    .returning({ userId: userTotp.userId });
  return written.length > 0;
}

/**
 * Confirms the pending secret at `step`; false when it is no longer the pending one. `secret` is the
 * value as stored (sealing is randomized: only the stored value identifies it).
 */
export async function confirmTotp(db: Executor, input: { userId: string; secret: string; step: number }) {
  const confirmed = await db
    .update(userTotp)
    .set({ confirmedAt: new Date(), lastUsedStep: input.step })
    .where(
      and(eq(userTotp.userId, input.userId), eq(userTotp.secret, input.secret), isNull(userTotp.confirmedAt)),
    )
    .returning({ userId: userTotp.userId });
  return confirmed.length > 0;
}

/** Replaces the stored secret `from` with `to` (the same secret, sealed), unless it changed meanwhile. */
export async function replaceTotpSecret(db: Executor, userId: string, from: string, to: string) {
  await db
    .update(userTotp)
    .set({ secret: to })
    .where(and(eq(userTotp.userId, userId), eq(userTotp.secret, from)));
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Executor, userId: string, codeHashes: readonly string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Records `step` as the last accepted one unless an equal or later step was accepted meanwhile. */
export async function claimTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .update(userTotp)
    .set({ lastUsedStep: step })
    .where(
      and(eq(userTotp.userId, userId), or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step))),
    )
    .returning({ userId: userTotp.userId });
  return claimed.length > 0;
}

/** Deletes the recovery code with this hash; answers whether there was one. */
export async function spendRecoveryCode(db: Executor, userId: string, codeHash: string): Promise<boolean> {
  const spent = await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash)))
    .returning({ id: recoveryCodes.id });
  return spent.length > 0;
}

export async function deleteTwoFactor(db: Executor, userId: string): Promise<void> {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Stores a pending sign-in, dropping the expired ones on the way. */
export async function insertPendingSignIn(
  db: Executor,
  values: typeof pendingSignIns.$inferInsert,
  now: Date,
) {
  await db.delete(pendingSignIns).where(lte(pendingSignIns.expiresAt, now));
  await db.insert(pendingSignIns).values(values);
}

/** The unexpired pending sign-in with this token hash. */
export async function findLivePendingSignIn(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ id: pendingSignIns.id, userId: pendingSignIns.userId, rememberMe: pendingSignIns.rememberMe })
    .from(pendingSignIns)
    .where(and(eq(pendingSignIns.tokenHash, tokenHash), gt(pendingSignIns.expiresAt, now)))
    .limit(1);
  return row;
}

/** Deletes a pending sign-in; answers whether this call was the one that did. */
export async function deletePendingSignIn(db: Executor, id: string): Promise<boolean> {
  const deleted = await db
    .delete(pendingSignIns)
    .where(eq(pendingSignIns.id, id))
    .returning({ id: pendingSignIns.id });
  return deleted.length > 0;
}

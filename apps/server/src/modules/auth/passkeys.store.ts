import { PASSKEY_CHALLENGE_TTL_MS } from "@prism/contract";
import { and, asc, eq, gt, isNull, lte } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { passkeys, webauthnChallenges } from "../../db/schema";

/** Stores a ceremony's challenge, dropping the expired ones on the way. */
export async function insertChallenge(
  db: Executor,
  input: { challenge: string; purpose: "register" | "authenticate"; userId: string | null },
  now: Date,
): Promise<void> {
  await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values({
    ...input,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
}

/** Deletes a live challenge of the purpose (and user); answers whether there was one. */
export async function deleteLiveChallenge(
  db: Executor,
  input: { challenge: string; purpose: "register" | "authenticate"; userId: string | null },
): Promise<boolean> {
  const spent = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, input.challenge),
        eq(webauthnChallenges.purpose, input.purpose),
        input.userId ? eq(webauthnChallenges.userId, input.userId) : isNull(webauthnChallenges.userId),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return spent.length > 0;
}

export async function passkeysOfUser(db: Executor, userId: string) {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

/** Inserts a passkey unless its credential is registered already (then undefined). */
export async function insertPasskeyOnce(db: Executor, values: typeof passkeys.$inferInsert) {
  const [row] = await db
    .insert(passkeys)
    .values(values)
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  return row;
}

/** Deletes one of the user's passkeys; answers whether it was theirs. */
export async function deletePasskeyOfUser(db: Executor, userId: string, passkeyId: string): Promise<boolean> {
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return deleted.length > 0;
}

export async function findPasskeyByCredentialId(db: Executor, credentialId: string) {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row;
}

/** Records a sign-in's counter, conditional on the counter read with the passkey (a clone loses). */
export async function advancePasskeyCounter(
  db: Executor,
  input: { id: string; fromCounter: number; toCounter: number },
): Promise<boolean> {
  const updated = await db
    .update(passkeys)
    .set({ counter: input.toCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, input.id), eq(passkeys.counter, input.fromCounter)))
    .returning({ id: passkeys.id });
  return updated.length > 0;
}

/** Deletes the passkey whose removal link carries this token hash; answers whose it was. */
export async function deletePasskeyByRemovalTokenHash(db: Executor, removalTokenHash: string) {
  const [row] = await db
    .delete(passkeys)
    .where(eq(passkeys.removalTokenHash, removalTokenHash))
    .returning({ id: passkeys.id, userId: passkeys.userId, name: passkeys.name });
  return row;
}

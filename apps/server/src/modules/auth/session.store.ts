import { and, desc, eq, gt, lt, ne } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { sessions, users } from "../../db/schema";

export async function findSessionByTokenHash(db: Executor, tokenHash: string, now: Date) {
  const rows = await db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      rememberMe: sessions.rememberMe,
      lastSeenAt: sessions.lastSeenAt,
      reauthenticatedAt: sessions.reauthenticatedAt,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isActive: users.isActive,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0];
}

export async function insertSession(db: Executor, values: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(values);
}

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Deletes every session of the user, or every one but `exceptSessionId`. */
export async function deleteSessionsOfUser(db: Executor, userId: string, exceptSessionId?: string) {
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
        : eq(sessions.userId, userId),
    );
}

/** Deletes one session if it is the user's; answers whether it was. */
export async function deleteSessionOfUser(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** The user's unexpired sessions, most recently seen first. */
export async function liveSessionsOfUser(db: Executor, userId: string, now: Date) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Sets the session's last-seen time to `now` unless another call already moved it past `staleBefore`. */
export async function markSessionSeen(db: Executor, sessionId: string, now: Date, staleBefore: Date) {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, staleBefore)));
}

/** Records a sign-in proof given with the session (decision 020). */
export async function markSessionReauthenticated(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.id, sessionId));
}

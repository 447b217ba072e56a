import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { sessions, users } from "../../db/schema";

export async function findSessionByTokenHash(db: Executor, tokenHash: string, now: Date) {
  const rows = await db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      rememberMe: sessions.rememberMe,
      lastSeenAt: sessions.lastSeenAt,
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

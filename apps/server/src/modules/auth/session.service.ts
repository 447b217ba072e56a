import { createHash } from "node:crypto";
import type { Executor } from "../../db/client";
import { findSessionByTokenHash } from "./session.store";

export interface AuthenticatedUser {
  sessionId: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Resolves a session cookie to its user; expired sessions and inactive users are not signed in. */
export async function authenticateSessionToken(
  db: Executor,
  token: string | undefined,
  now = new Date(),
): Promise<AuthenticatedUser | undefined> {
  // Tokens are 43 base64url characters; anything else cannot be ours and costs no query.
  if (!token || token.length > 128) return undefined;
  const row = await findSessionByTokenHash(db, hashSessionToken(token), now);
  if (!row?.isActive) return undefined;
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
  };
}

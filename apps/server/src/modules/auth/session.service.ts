import { createHash, randomBytes } from "node:crypto";
import {
  REAUTHENTICATION_REQUIRED,
  REAUTHENTICATION_WINDOW_MS,
  REMEMBER_ME_SESSION_MS,
  SESSION_MS,
} from "@prism/contract";
import type { FastifyReply } from "fastify";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { touchSession } from "./devices.service";
import { deleteSession, deleteSessionsOfUser, findSessionByTokenHash, insertSession } from "./session.store";
import { SESSION_COOKIE } from "./session-cookie";

export interface AuthenticatedUser {
  sessionId: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The session's last sign-in proof; null when it never gave one (decision 020). */
  reauthenticatedAt: Date | null;
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
  await touchSession(db, row, now);
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    reauthenticatedAt: row.reauthenticatedAt,
  };
}

/**
 * Sensitive calls need a sign-in proof from the last REAUTHENTICATION_WINDOW_MS (decision 020): a stolen
 * session cookie alone cannot add a passkey, change the password or hand the organization away.
 */
export function requireRecentReauthentication(user: AuthenticatedUser, now = new Date()): void {
  const provedAt = user.reauthenticatedAt?.getTime();
  if (provedAt === undefined || now.getTime() - provedAt > REAUTHENTICATION_WINDOW_MS)
    throw new AppError("reauthentication-required", REAUTHENTICATION_REQUIRED);
}

export interface NewSession {
  token: string;
  expiresAt: Date;
  rememberMe: boolean;
}

/** A new session: 256 random bits in the cookie, only their SHA-256 in the database. */
export async function createSession(
  db: Executor,
  input: { userId: string; rememberMe: boolean; ipAddress?: string; userAgent?: string | undefined },
  now = new Date(),
): Promise<NewSession> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + (input.rememberMe ? REMEMBER_ME_SESSION_MS : SESSION_MS));
  await insertSession(db, {
    tokenHash: hashSessionToken(token),
    userId: input.userId,
    rememberMe: input.rememberMe,
    createdAt: now,
    lastSeenAt: now,
    // Every session is opened by a sign-in, which is itself a proof (password, code, passkey, or the
    // identity provider for accounts that have nothing else).
    reauthenticatedAt: now,
    expiresAt,
    ipAddress: input.ipAddress ?? null,
    userAgent: input.userAgent?.slice(0, 512) ?? null,
  });
  return { token, expiresAt, rememberMe: input.rememberMe };
}

export async function endSession(db: Executor, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
}

/** Ends every session of the user, or every one but `exceptSessionId` (password change). */
export async function endAllSessions(db: Executor, userId: string, exceptSessionId?: string): Promise<void> {
  await deleteSessionsOfUser(db, userId, exceptSessionId);
}

/**
 * httpOnly so scripts never see the token, SameSite=Lax against cross-site sends, Secure in production.
 * The cookie lives exactly as long as the session (1 day, or 1 year with Remember Me): a browser-session
 * cookie would die with the browser, and the spec keeps a plain session for a day, restarts included.
 */
export function setSessionCookie(reply: FastifyReply, session: NewSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires: session.expiresAt,
    maxAge: Math.round((session.rememberMe ? REMEMBER_ME_SESSION_MS : SESSION_MS) / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", secure, path: "/" });
}

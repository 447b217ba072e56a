import { SESSION_LAST_SEEN_RESOLUTION_MS, SESSION_NOT_FOUND, type SignedInDevice } from "@prism/contract";
import Bowser from "bowser";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { deleteSessionOfUser, liveSessionsOfUser, markSessionSeen } from "./session.store";

function describe(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  const major = version?.split(".").slice(0, 2).join(".");
  return major ? `${name} ${major}` : name;
}

/** "Chrome 126.0" and "macOS 14.5" from a user agent; null for what it does not name. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: describe(parsed.browser.name, parsed.browser.version),
    // Windows reports its kernel ("NT 10.0"); its marketing name ("10") is what people know.
    os: describe(parsed.os.name, parsed.os.name === "Windows" ? parsed.os.versionName : parsed.os.version),
  };
}

/** The user's live sessions, most recently seen first, the calling one marked. */
export async function listDevices(
  db: Executor,
  user: { userId: string; sessionId: string },
  now = new Date(),
): Promise<SignedInDevice[]> {
  const rows = await liveSessionsOfUser(db, user.userId, now);
  return rows.map((row) => ({
    id: row.id,
    ...describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === user.sessionId,
  }));
}

/** Ends one of the user's own sessions; another user's session id is "not found". */
export async function revokeDevice(db: Executor, userId: string, sessionId: string): Promise<void> {
  if (!isUuid(sessionId)) throw new AppError("not-found", SESSION_NOT_FOUND);
  if (!(await deleteSessionOfUser(db, userId, sessionId))) throw new AppError("not-found", SESSION_NOT_FOUND);
}

/**
 * Records that a session made a call, at most once per resolution period: the value read with the
 * session decides, and the update is conditional, so a busy session costs one write every few
 * minutes, not one per call.
 */
export async function touchSession(
  db: Executor,
  session: { sessionId: string; lastSeenAt: Date },
  now = new Date(),
): Promise<void> {
  const staleBefore = new Date(now.getTime() - SESSION_LAST_SEEN_RESOLUTION_MS);
  if (session.lastSeenAt >= staleBefore) return;
  await markSessionSeen(db, session.sessionId, now, staleBefore);
}

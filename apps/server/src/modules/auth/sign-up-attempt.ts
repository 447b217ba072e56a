import { createHash, randomBytes } from "node:crypto";
import { VERIFICATION_CODE_TTL_MS } from "@prism/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { SIGN_UP_COOKIE } from "./session-cookie";

/** 256 random bits in base64url, as the cookie carries them. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashAttemptToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Marks this browser as the one whose sign-up the next mailed code confirms, and returns the hash the
 * code is bound to. The token is kept when the browser has one (a repeated sign-up replaces its own
 * attempt rather than piling up), and lives as long as a code. httpOnly: scripts never read it;
 * SameSite=Strict: only the console's own calls carry it; scoped to the account calls.
 */
export function startSignUpAttempt(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = request.cookies[SIGN_UP_COOKIE];
  const token = existing && TOKEN_PATTERN.test(existing) ? existing : randomBytes(32).toString("base64url");
  reply.setCookie(SIGN_UP_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/v1/users",
    maxAge: Math.round(VERIFICATION_CODE_TTL_MS / 1000),
  });
  return hashAttemptToken(token);
}

/** The hash of this browser's sign-up attempt, or null when it started none. */
export function signUpAttemptOf(request: FastifyRequest): string | null {
  const token = request.cookies[SIGN_UP_COOKIE];
  return token && TOKEN_PATTERN.test(token) ? hashAttemptToken(token) : null;
}

export function clearSignUpAttempt(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SIGN_UP_COOKIE, { httpOnly: true, sameSite: "strict", secure, path: "/v1/users" });
}

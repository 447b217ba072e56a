import { createHash, randomBytes } from "node:crypto";
import { TWO_FACTOR_PENDING_TTL_MS, TWO_FACTOR_REQUIRED, TWO_FACTOR_SIGN_IN_EXPIRED } from "@prism/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { hasTwoFactor } from "./two-factor.service";
import { deletePendingSignIn, findLivePendingSignIn, insertPendingSignIn } from "./two-factor.store";

/**
 * The cookie of a sign-in waiting for its second factor: a random token whose SHA-256 names the
 * pending row. httpOnly, SameSite=Strict, scoped to the two-factor calls and as short-lived as the row.
 */
export const TWO_FACTOR_COOKIE = "prism_two_factor";
const COOKIE_PATH = "/v1/users/two-factor";
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function pendingTokenOf(request: FastifyRequest): string | undefined {
  const token = request.cookies[TWO_FACTOR_COOKIE];
  return token && TOKEN_PATTERN.test(token) ? token : undefined;
}

/**
 * Called once a first factor (password, Google, GitHub) has named the user: an account with two-factor
 * sign-in gets no session yet, only a pending sign-in and the answer `two-factor-required`. Accounts
 * without it pass through.
 */
export async function requireSecondFactor(
  db: Executor,
  reply: FastifyReply,
  input: { userId: string; rememberMe: boolean; secure: boolean },
  now = new Date(),
): Promise<void> {
  if (!(await hasTwoFactor(db, input.userId))) return;
  const token = randomBytes(32).toString("base64url");
  await insertPendingSignIn(
    db,
    {
      tokenHash: hashToken(token),
      userId: input.userId,
      rememberMe: input.rememberMe,
      createdAt: now,
      expiresAt: new Date(now.getTime() + TWO_FACTOR_PENDING_TTL_MS),
    },
    now,
  );
  reply.setCookie(TWO_FACTOR_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: input.secure,
    path: COOKIE_PATH,
    maxAge: Math.round(TWO_FACTOR_PENDING_TTL_MS / 1000),
  });
  throw new AppError("two-factor-required", TWO_FACTOR_REQUIRED);
}

/** The live pending sign-in of this browser, or a 401 `two-factor-sign-in-expired`. */
export async function findPendingSignIn(
  db: Executor,
  request: FastifyRequest,
  now = new Date(),
): Promise<{ id: string; userId: string; rememberMe: boolean }> {
  const token = pendingTokenOf(request);
  const row = token ? await findLivePendingSignIn(db, hashToken(token), now) : undefined;
  if (!row) throw new AppError("two-factor-sign-in-expired", TWO_FACTOR_SIGN_IN_EXPIRED);
  return row;
}

/** Ends the pending sign-in; false when another request completed it first (it yields one session). */
export async function completePendingSignIn(db: Executor, id: string): Promise<boolean> {
  return deletePendingSignIn(db, id);
}

export function clearPendingSignInCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(TWO_FACTOR_COOKIE, { httpOnly: true, sameSite: "strict", secure, path: COOKIE_PATH });
}

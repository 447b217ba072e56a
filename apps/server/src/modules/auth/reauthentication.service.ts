import {
  INVALID_PASSWORD,
  INVALID_TWO_FACTOR_CODE,
  REAUTHENTICATION_LOCKOUT_MS,
  REAUTHENTICATION_MAX_ATTEMPTS,
  REAUTHENTICATION_WINDOW_MS,
  type ReauthenticationOptionsResponse,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import type { PasswordHasher } from "../../providers/password-hashing";
import { clearRateLimit, consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";
import { findUserById } from "../users/users.store";
import { type RelyingParty, startPasskeyReauthentication, verifyPasskeyOfUser } from "./passkeys.service";
import { passkeysOfUser } from "./passkeys.store";
import { markSessionReauthenticated } from "./session.store";
import type { TotpSecretBox } from "./totp-secret-box";
import { checkSecondFactor, hasTwoFactor } from "./two-factor.service";

/**
 * Wrong passwords given to confirm an action, per account: counted before the check (so parallel
 * guesses cannot exceed it), given back on success. Codes have their own allowance (two-factor.service).
 */
export const REAUTHENTICATION_PASSWORD_RATE_LIMIT: RateLimitRule = {
  name: "reauthenticate-password:user",
  limit: REAUTHENTICATION_MAX_ATTEMPTS,
  windowMs: REAUTHENTICATION_LOCKOUT_MS,
};

export type SignInProof =
  | { method: "password"; password: string }
  | { method: "code"; code: string }
  | { method: "passkey"; response: Record<string, unknown> };

interface ReauthenticationDeps {
  db: Executor;
  passwords: PasswordHasher;
  totpSecrets: TotpSecretBox;
  relyingParty: RelyingParty;
}

/** Which proofs the account can give; a passkey challenge bound to the user when it has passkeys. */
export async function getReauthenticationOptions(
  deps: ReauthenticationDeps,
  userId: string,
): Promise<ReauthenticationOptionsResponse> {
  const user = await findUserById(deps.db, userId);
  const passkeys = await passkeysOfUser(deps.db, userId);
  return {
    password: Boolean(user?.passwordHash),
    authenticatorCode: await hasTwoFactor(deps.db, userId),
    passkeyOptions:
      passkeys.length > 0
        ? { ...(await startPasskeyReauthentication(deps.db, deps.relyingParty, userId, passkeys)) }
        : null,
  };
}

/** Throws unless the proof is good; answers whether it spent a recovery code (which is mailed about). */
async function checkProof(deps: ReauthenticationDeps, userId: string, proof: SignInProof): Promise<boolean> {
  switch (proof.method) {
    case "password": {
      await consumeRateLimit(deps.db, REAUTHENTICATION_PASSWORD_RATE_LIMIT, userId);
      const user = await findUserById(deps.db, userId);
      // An account without a password (Google or GitHub only) has none to give.
      const matches = user?.passwordHash
        ? await deps.passwords.verify(user.passwordHash, proof.password)
        : false;
      if (!matches) throw new AppError("invalid-password", INVALID_PASSWORD);
      await clearRateLimit(deps.db, REAUTHENTICATION_PASSWORD_RATE_LIMIT, userId);
      return false;
    }
    case "code": {
      // Throttled, single use and recovery-code aware, exactly as at sign-in.
      const accepted = await checkSecondFactor(deps.db, deps.totpSecrets, userId, proof.code);
      if (accepted === null) throw new AppError("invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
      return accepted === "recovery-code";
    }
    case "passkey":
      await verifyPasskeyOfUser(deps.db, deps.relyingParty, userId, proof.response);
      return false;
  }
}

/**
 * Checks one sign-in proof and marks the session with it: sensitive calls then pass for
 * REAUTHENTICATION_WINDOW_MS. A wrong proof changes nothing.
 */
export async function reauthenticate(
  deps: ReauthenticationDeps,
  session: { sessionId: string; userId: string },
  proof: SignInProof,
  now = new Date(),
): Promise<{ reauthenticatedUntil: string; spentRecoveryCode: boolean }> {
  const spentRecoveryCode = await checkProof(deps, session.userId, proof);
  await markSessionReauthenticated(deps.db, session.sessionId, now);
  return {
    reauthenticatedUntil: new Date(now.getTime() + REAUTHENTICATION_WINDOW_MS).toISOString(),
    spentRecoveryCode,
  };
}

import { createHash, randomInt } from "node:crypto";
import {
  INVALID_TWO_FACTOR_CODE,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_TOLERANCE_STEPS,
  TWO_FACTOR_ALREADY_ENABLED,
  TWO_FACTOR_LOCKOUT_MS,
  TWO_FACTOR_MAX_ATTEMPTS,
  TWO_FACTOR_NOT_ENABLED,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { clearRateLimit, consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";
import { endAllSessions } from "./session.service";
import type { TotpSecretBox } from "./totp-secret-box";
import {
  claimTotpStep,
  confirmTotp,
  countRecoveryCodes,
  deleteTwoFactor,
  findConfirmedTotp,
  findTotp,
  replaceRecoveryCodes,
  replaceTotpSecret,
  spendRecoveryCode,
  writePendingTotp,
} from "./two-factor.store";

/**
 * The TOTP and QR code libraries load with the first two-factor call, not at start-up (issue 16); the
 * module loader keeps them after that.
 */
const loadOtp = () => import("otplib");

/** Wrong codes per account, across sign-in, enabling and disabling: 5 tries, then a wait. */
export const TWO_FACTOR_RATE_LIMIT: RateLimitRule = {
  name: "two-factor:user",
  limit: TWO_FACTOR_MAX_ATTEMPTS,
  windowMs: TWO_FACTOR_LOCKOUT_MS,
};

/** Lower-case RFC 4648 base32: no look-alike pairs that matter once lower-cased, 5 bits a character. */
const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const TOTP_CODE_PATTERN = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

function hashRecoveryCode(userId: string, code: string): string {
  return createHash("sha256").update(`${userId}:${code}`).digest("hex");
}

/** 10 characters of base32 (50 random bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  let code = "";
  for (let index = 0; index < RECOVERY_CODE_LENGTH; index += 1) {
    code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  }
  const half = RECOVERY_CODE_LENGTH / 2;
  return `${code.slice(0, half)}-${code.slice(half)}`;
}

/**
 * The time step of `code` if it is a current code of `secret` for a step after `afterStep`. A secret
 * that does not open (altered, or sealed under another APP_SECRET) matches no code.
 */
async function matchingStep(
  secret: string | undefined,
  code: string,
  afterStep: number | null,
): Promise<number | null> {
  if (secret === undefined || !TOTP_CODE_PATTERN.test(code)) return null;
  const { verify } = await loadOtp();
  const result = await verify({
    secret,
    token: code,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_TOLERANCE_STEPS * TOTP_PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // The TOTP strategy's answer carries the step; otplib types it as TOTP or HOTP.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

export async function hasTwoFactor(db: Executor, userId: string): Promise<boolean> {
  return (await findConfirmedTotp(db, userId)) !== undefined;
}

export async function getTwoFactorStatus(
  db: Executor,
  userId: string,
): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  if (!(await hasTwoFactor(db, userId))) return { enabled: false, recoveryCodesLeft: 0 };
  return { enabled: true, recoveryCodesLeft: await countRecoveryCodes(db, userId) };
}

/**
 * Starts an enrolment with a fresh secret, replacing an unconfirmed one; the account's sign-in does not
 * change until `enableTwoFactor` proves the app holds it. The QR code is drawn here, never by a third
 * party that would see the secret.
 */
export async function startTwoFactorEnrolment(
  db: Executor,
  secrets: TotpSecretBox,
  user: { userId: string; email: string },
): Promise<{ secret: string; otpauthUrl: string; qrCodeSvg: string }> {
  if (await hasTwoFactor(db, user.userId))
    throw new AppError("two-factor-already-enabled", TWO_FACTOR_ALREADY_ENABLED);
  const { generateSecret, generateURI } = await loadOtp();
  const secret = generateSecret();
  // Conditional on no confirmed secret: a parallel enable that won keeps its secret.
  if (!(await writePendingTotp(db, user.userId, secrets.seal(user.userId, secret))))
    throw new AppError("two-factor-already-enabled", TWO_FACTOR_ALREADY_ENABLED);
  const otpauthUrl = generateURI({
    issuer: TOTP_ISSUER,
    label: user.email,
    secret,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
  const { default: QRCode } = await import("qrcode");
  const qrCodeSvg = await QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, otpauthUrl, qrCodeSvg };
}

function newRecoveryCodes(userId: string): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((plain) => hashRecoveryCode(userId, plain.replace("-", ""))) };
}

/**
 * Confirms the enrolment with a first code and returns the recovery codes, in clear this once. The
 * code's step is recorded, so the same code cannot then sign in. Every other session of the user ends
 * in the same transaction: one opened before (by a thief with the password, say) would otherwise keep
 * going without ever giving a code.
 */
export async function enableTwoFactor(
  db: Executor,
  secrets: TotpSecretBox,
  session: { userId: string; sessionId: string },
  code: string,
): Promise<string[]> {
  const { userId } = session;
  await consumeRateLimit(db, TWO_FACTOR_RATE_LIMIT, userId);
  const row = await findTotp(db, userId);
  if (!row) throw new AppError("two-factor-not-enabled", TWO_FACTOR_NOT_ENABLED);
  if (row.confirmedAt) throw new AppError("two-factor-already-enabled", TWO_FACTOR_ALREADY_ENABLED);
  const secret = secrets.open(userId, row.secret);
  const step = await matchingStep(secret, code, null);
  if (secret === undefined || step === null)
    throw new AppError("invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
  const { codes, hashes } = newRecoveryCodes(userId);
  await db.transaction(async (tx) => {
    // The secret checked must still be the pending one: a restarted enrolment in another tab wins.
    if (!(await confirmTotp(tx, { userId, secret: row.secret, step })))
      throw new AppError("invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
    if (secrets.isPlaintext(row.secret))
      await replaceTotpSecret(tx, userId, row.secret, secrets.seal(userId, secret));
    await replaceRecoveryCodes(tx, userId, hashes);
    await endAllSessions(tx, userId, session.sessionId);
  });
  await clearRateLimit(db, TWO_FACTOR_RATE_LIMIT, userId);
  return codes;
}

/** New recovery codes, in clear this once; the old ones stop working in the same transaction. */
export async function regenerateRecoveryCodes(db: Executor, userId: string): Promise<string[]> {
  if (!(await hasTwoFactor(db, userId))) throw new AppError("two-factor-not-enabled", TWO_FACTOR_NOT_ENABLED);
  const { codes, hashes } = newRecoveryCodes(userId);
  await db.transaction((tx) => replaceRecoveryCodes(tx, userId, hashes));
  return codes;
}

/** Which second factor was accepted: recovery codes are mailed about (issue 27), codes are not. */
export type AcceptedSecondFactor = "authenticator-code" | "recovery-code";

/**
 * Checks a second factor of a user with two-factor sign-in: a current authenticator code for a later
 * step than the last one accepted, or an unused recovery code, which is spent. Every try counts against
 * the account's allowance before it is checked (so parallel guesses cannot exceed it); a success gives
 * the allowance back. `code` is normalised by the contract (no spaces or dashes, lower case).
 */
export async function checkSecondFactor(
  db: Executor,
  secrets: TotpSecretBox,
  userId: string,
  code: string,
): Promise<AcceptedSecondFactor | null> {
  await consumeRateLimit(db, TWO_FACTOR_RATE_LIMIT, userId);
  const row = await findConfirmedTotp(db, userId);
  if (!row) return null;
  let accepted: AcceptedSecondFactor | null = null;
  if (TOTP_CODE_PATTERN.test(code)) {
    const secret = secrets.open(userId, row.secret);
    const step = await matchingStep(secret, code, row.lastUsedStep);
    if (secret !== undefined && step !== null) {
      // Conditional on no later or equal step having been accepted meanwhile: a code works once.
      if (await claimTotpStep(db, userId, step)) accepted = "authenticator-code";
      // A secret stored before encryption is sealed once its holder proves they still have it.
      if (accepted && secrets.isPlaintext(row.secret))
        await replaceTotpSecret(db, userId, row.secret, secrets.seal(userId, secret));
    }
  } else {
    if (await spendRecoveryCode(db, userId, hashRecoveryCode(userId, code))) accepted = "recovery-code";
  }
  if (accepted) await clearRateLimit(db, TWO_FACTOR_RATE_LIMIT, userId);
  return accepted;
}

/** Turns two-factor sign-in off with a current code or a recovery code: a session alone is not enough. */
export async function disableTwoFactor(
  db: Executor,
  secrets: TotpSecretBox,
  userId: string,
  code: string,
): Promise<void> {
  if (!(await hasTwoFactor(db, userId))) throw new AppError("two-factor-not-enabled", TWO_FACTOR_NOT_ENABLED);
  if ((await checkSecondFactor(db, secrets, userId, code)) === null)
    throw new AppError("invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
  await db.transaction((tx) => deleteTwoFactor(tx, userId));
}

import {
  calls,
  INVALID_TWO_FACTOR_CODE,
  REMOVE_PASSKEY_LINK_PATH,
  TWO_FACTOR_SIGN_IN_EXPIRED,
} from "@prism/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { registerCall } from "../../http/register-call";
import {
  passkeyAddedMail,
  recoveryCodeUsedMail,
  twoFactorDisabledMail,
} from "../../providers/mail/templates";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";
import { getUserInfo } from "../users/users.service";
import { AUTH_RATE_LIMITS } from "./auth.routes";
import { listDevices, revokeDevice } from "./devices.service";
import {
  finishPasskeyRegistration,
  finishPasskeySignIn,
  listPasskeys,
  relyingPartyOf,
  removePasskey,
  removePasskeyWithLink,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "./passkeys.service";
import { clearPendingSignInCookie, completePendingSignIn, findPendingSignIn } from "./pending-sign-in";
import { getReauthenticationOptions, reauthenticate } from "./reauthentication.service";
import { sendSecurityMail } from "./security-mails";
import { clearSessionCookie, createSession, setSessionCookie } from "./session.service";
import { createTotpSecretBox } from "./totp-secret-box";
import {
  checkSecondFactor,
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  regenerateRecoveryCodes,
  startTwoFactorEnrolment,
} from "./two-factor.service";
import { countRecoveryCodes } from "./two-factor.store";

/** What these routes use of the application's dependencies. */
export type AccountSecurityRouteDeps = Pick<AppDependencies, "config" | "database" | "mailer" | "passwords">;

/**
 * Two-factor sign-in, passkeys and the signed-in devices (issue 19); the password and Google/GitHub
 * sign-ins live in auth.routes.ts.
 */
/** Passkey sign-in challenges one address may ask for: a few per sign-in page view, bounded. */
const PASSKEY_OPTIONS_RATE_LIMIT: RateLimitRule = {
  name: "passkey-options:ip",
  limit: 120,
  windowMs: 10 * 60_000,
};

/** Tries of the passkey-added mail's removal link per address: its token cannot be guessed anyway. */
const PASSKEY_REMOVAL_LINK_RATE_LIMIT: RateLimitRule = {
  name: "passkey-removal-link:ip",
  limit: 30,
  windowMs: 10 * 60_000,
};

export function registerAccountSecurityRoutes(app: FastifyInstance, deps: AccountSecurityRouteDeps): void {
  const db = deps.database.db;
  const secureCookies = deps.config.isProduction;
  const totpSecrets = createTotpSecretBox(deps.config.appSecret);

  registerCall(app, deps, calls.twoFactor.status, async ({ user }) => getTwoFactorStatus(db, user.userId));

  registerCall(app, deps, calls.twoFactor.start, async ({ user }) =>
    startTwoFactorEnrolment(db, totpSecrets, user),
  );

  // Ends the user's other sessions: one opened before two-factor was on never gave a code.
  registerCall(app, deps, calls.twoFactor.enable, async ({ user, body }) => ({
    recoveryCodes: await enableTwoFactor(db, totpSecrets, user, body.code),
  }));

  const mailRecoveryCodeUse = async (request: FastifyRequest, userId: string) => {
    const codesLeft = await countRecoveryCodes(db, userId);
    await sendSecurityMail(deps, request, userId, (account, origin) =>
      recoveryCodeUsedMail(account.email, account.firstName, codesLeft, origin),
    );
  };

  registerCall(app, deps, calls.twoFactor.disable, async ({ user, body, request }) => {
    // With a recovery code or not, the one mail says two-factor is off (no codes are left to count).
    await disableTwoFactor(db, totpSecrets, user.userId, body.code);
    await sendSecurityMail(deps, request, user.userId, (account, origin) =>
      twoFactorDisabledMail(account.email, account.firstName, origin),
    );
    return {};
  });

  registerCall(app, deps, calls.twoFactor.regenerateRecoveryCodes, async ({ user }) => ({
    recoveryCodes: await regenerateRecoveryCodes(db, user.userId),
  }));

  registerCall(app, deps, calls.twoFactor.verify, async ({ body, request, reply }) => {
    const pending = await findPendingSignIn(db, request);
    const accepted = await checkSecondFactor(db, totpSecrets, pending.userId, body.code);
    if (accepted === null) throw new AppError("invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
    if (!(await completePendingSignIn(db, pending.id)))
      throw new AppError("two-factor-sign-in-expired", TWO_FACTOR_SIGN_IN_EXPIRED);
    clearPendingSignInCookie(reply, secureCookies);
    const session = await createSession(db, {
      userId: pending.userId,
      rememberMe: pending.rememberMe,
      ipAddress: request.ip,
      userAgent: request.headers["user-agent"],
    });
    setSessionCookie(reply, session, secureCookies);
    if (accepted === "recovery-code") await mailRecoveryCodeUse(request, pending.userId);
    return getUserInfo(db, pending.userId);
  });

  const relyingParty = relyingPartyOf(deps.config);

  registerCall(app, deps, calls.passkeys.list, async ({ user }) => ({
    passkeys: await listPasskeys(db, user.userId),
  }));

  registerCall(app, deps, calls.passkeys.registrationOptions, async ({ user }) => ({
    options: { ...(await startPasskeyRegistration(db, relyingParty, user)) },
  }));

  registerCall(app, deps, calls.passkeys.register, async ({ user, body, request }) => {
    const { passkey, removalToken } = await finishPasskeyRegistration(db, relyingParty, user.userId, body);
    const removalLink = `${deps.config.appOrigin}${REMOVE_PASSKEY_LINK_PATH}?token=${removalToken}`;
    await sendSecurityMail(deps, request, user.userId, (account, origin) =>
      passkeyAddedMail(account.email, account.firstName, passkey.name, origin, removalLink),
    );
    return { passkey };
  });

  registerCall(app, deps, calls.passkeys.removeWithLink, async ({ body, request }) => {
    await consumeRateLimit(db, PASSKEY_REMOVAL_LINK_RATE_LIMIT, request.ip);
    await removePasskeyWithLink(db, body.token);
    return {};
  });

  const reauthenticationDeps = { db, passwords: deps.passwords, totpSecrets, relyingParty };

  registerCall(app, deps, calls.reauthentication.options, async ({ user }) =>
    getReauthenticationOptions(reauthenticationDeps, user.userId),
  );

  registerCall(app, deps, calls.reauthentication.reauthenticate, async ({ user, body, request }) => {
    const { reauthenticatedUntil, spentRecoveryCode } = await reauthenticate(
      reauthenticationDeps,
      user,
      body,
    );
    if (spentRecoveryCode) await mailRecoveryCodeUse(request, user.userId);
    return { reauthenticatedUntil };
  });

  registerCall(app, deps, calls.passkeys.remove, async ({ user, body }) => {
    await removePasskey(db, user.userId, body.passkeyId);
    return {};
  });

  registerCall(app, deps, calls.passkeys.authenticationOptions, async ({ request }) => {
    // Asked for on every view of the sign-in form (the autofill's passkeys), so not counted as a sign-in.
    const rule = PASSKEY_OPTIONS_RATE_LIMIT;
    await consumeRateLimit(
      db,
      { ...rule, limit: rule.limit * deps.config.limits.authLimitsPerIpScale },
      request.ip,
    );
    return { options: { ...(await startPasskeySignIn(db, relyingParty)) } };
  });

  // A passkey is both factors at once (something held, unlocked by something known or biometric): it
  // creates the session without the two-factor step.
  registerCall(app, deps, calls.passkeys.signIn, async ({ body, request, reply }) => {
    await consumeRateLimit(db, AUTH_RATE_LIMITS.login[0], request.ip);
    const userId = await finishPasskeySignIn(db, relyingParty, body.response);
    const session = await createSession(db, {
      userId,
      rememberMe: body.rememberMe,
      ipAddress: request.ip,
      userAgent: request.headers["user-agent"],
    });
    setSessionCookie(reply, session, secureCookies);
    return getUserInfo(db, userId);
  });

  registerCall(app, deps, calls.sessions.list, async ({ user }) => ({
    sessions: await listDevices(db, user),
  }));

  registerCall(app, deps, calls.sessions.revoke, async ({ user, body, reply }) => {
    await revokeDevice(db, user.userId, body.sessionId);
    if (body.sessionId === user.sessionId) clearSessionCookie(reply, secureCookies);
    return {};
  });
}

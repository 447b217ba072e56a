import { calls, INVITATION_COOKIE, RECAPTCHA_FAILED } from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { registerCall } from "../../http/register-call";
import type { BotCheckKind } from "../../providers/bot-check/bot-check";
import { type OAuthProfile, OAuthVerificationError } from "../../providers/oauth/google";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";
import { getUserInfo } from "../users/users.service";
import {
  confirmEmail,
  logIn,
  requestPasswordReset,
  resetPassword,
  signInWithOAuth,
  signUp,
} from "./auth.service";
import { requireSecondFactor } from "./pending-sign-in";
import {
  clearSessionCookie,
  createSession,
  endAllSessions,
  endSession,
  setSessionCookie,
} from "./session.service";
import { clearSignUpAttempt, signUpAttemptOf, startSignUpAttempt } from "./sign-up-attempt";

/** What these routes use of the application's dependencies. */
export type AuthRouteDeps = Pick<
  AppDependencies,
  "botCheck" | "config" | "database" | "mailer" | "passwords" | "signInWithGitHub" | "verifyGoogleCredential"
>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Throttles for the calls that guess at secrets or send mail. Per IP they are generous (offices share
 * addresses); per email they are tight, which is what stops guessing one account's password or codes.
 */
export const AUTH_RATE_LIMITS = {
  login: [
    { name: "login:ip", limit: 60, windowMs: 10 * MINUTE },
    { name: "login:email", limit: 10, windowMs: 10 * MINUTE },
  ],
  create: [
    { name: "create:ip", limit: 30, windowMs: HOUR },
    { name: "create:email", limit: 5, windowMs: HOUR },
  ],
  confirm: [
    { name: "confirm:ip", limit: 60, windowMs: 10 * MINUTE },
    { name: "confirm:email", limit: 10, windowMs: 10 * MINUTE },
  ],
  forgotPassword: [
    { name: "forgot:ip", limit: 30, windowMs: HOUR },
    { name: "forgot:email", limit: 5, windowMs: HOUR },
  ],
  resetPassword: [
    { name: "reset:ip", limit: 60, windowMs: 10 * MINUTE },
    { name: "reset:email", limit: 10, windowMs: 10 * MINUTE },
  ],
} satisfies Record<string, [RateLimitRule, RateLimitRule]>;

/** The invitation link the browser is following (the console keeps its id in a cookie across sign-up). */
function invitationOf(request: FastifyRequest): string | undefined {
  return request.cookies[INVITATION_COOKIE];
}

async function guardPublicCall(
  deps: AuthRouteDeps,
  request: FastifyRequest,
  rules: readonly [RateLimitRule, RateLimitRule],
  body: { email: string; recaptchaToken?: string | undefined; recaptchaType?: BotCheckKind | undefined },
): Promise<void> {
  const [perIp, perEmail] = rules;
  const ipScale = deps.config.limits.authLimitsPerIpScale;
  await consumeRateLimit(deps.database.db, { ...perIp, limit: perIp.limit * ipScale }, request.ip);
  await consumeRateLimit(deps.database.db, perEmail, body.email);
  const human = await deps.botCheck.verify({
    token: body.recaptchaToken,
    kind: body.recaptchaType,
    ip: request.ip,
  });
  if (!human) throw new AppError("recaptcha-failed", RECAPTCHA_FAILED);
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const secureCookies = deps.config.isProduction;

  const startSession = async (request: FastifyRequest, userId: string, rememberMe: boolean) => {
    const session = await createSession(deps.database.db, {
      userId,
      rememberMe,
      ipAddress: request.ip,
      userAgent: request.headers["user-agent"],
    });
    return session;
  };

  registerCall(app, deps, calls.users.login, async ({ body, request, reply }) => {
    await guardPublicCall(deps, request, AUTH_RATE_LIMITS.login, body);
    // An unverified account answers 403 with a fresh code, which this browser's attempt cookie (set on
    // that error answer) lets it confirm.
    const userId = await logIn(deps, body, () => startSignUpAttempt(request, reply, secureCookies));
    await requireSecondFactor(deps.database.db, reply, {
      userId,
      rememberMe: body.rememberMe,
      secure: secureCookies,
    });
    setSessionCookie(reply, await startSession(request, userId, body.rememberMe), secureCookies);
    return getUserInfo(deps.database.db, userId);
  });

  registerCall(app, deps, calls.users.create, async ({ body, request, reply }) => {
    await guardPublicCall(deps, request, AUTH_RATE_LIMITS.create, body);
    await signUp(deps, body, startSignUpAttempt(request, reply, secureCookies));
    return {};
  });

  registerCall(app, deps, calls.users.confirm, async ({ body, request, reply }) => {
    await guardPublicCall(deps, request, AUTH_RATE_LIMITS.confirm, body);
    const userId = await confirmEmail(deps, body, signUpAttemptOf(request), invitationOf(request));
    clearSignUpAttempt(reply, secureCookies);
    setSessionCookie(reply, await startSession(request, userId, false), secureCookies);
    return getUserInfo(deps.database.db, userId);
  });

  registerCall(app, deps, calls.users.forgotPassword, async ({ body, request }) => {
    await guardPublicCall(deps, request, AUTH_RATE_LIMITS.forgotPassword, body);
    await requestPasswordReset(deps, body);
    return {};
  });

  registerCall(app, deps, calls.users.resetPassword, async ({ body, request }) => {
    await guardPublicCall(deps, request, AUTH_RATE_LIMITS.resetPassword, body);
    await resetPassword(deps, body, (tx, userId) => endAllSessions(tx, userId), invitationOf(request));
    return {};
  });

  const oauthSignIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    verify: () => Promise<OAuthProfile>,
    rememberMe: boolean,
    providerName: string,
  ) => {
    let profile: OAuthProfile;
    try {
      profile = await verify();
    } catch (error) {
      if (error instanceof OAuthVerificationError) {
        request.log.warn({ err: error }, `${providerName} sign-in refused`);
        throw new AppError("invalid-credentials", `The ${providerName} sign-in could not be verified.`);
      }
      throw error;
    }
    const userId = await signInWithOAuth(deps, profile, invitationOf(request));
    await requireSecondFactor(deps.database.db, reply, { userId, rememberMe, secure: secureCookies });
    return { userId, session: await startSession(request, userId, rememberMe) };
  };

  registerCall(app, deps, calls.users.googleLogin, async ({ body, request, reply }) => {
    const verifyGoogleCredential = deps.verifyGoogleCredential;
    if (!verifyGoogleCredential)
      throw new AppError("service-unavailable", "Google sign-in is not configured.");
    await consumeRateLimit(deps.database.db, AUTH_RATE_LIMITS.login[0], request.ip);
    const { userId, session } = await oauthSignIn(
      request,
      reply,
      () => verifyGoogleCredential(body.credential),
      body.rememberMe,
      "Google",
    );
    setSessionCookie(reply, session, secureCookies);
    return getUserInfo(deps.database.db, userId);
  });

  registerCall(app, deps, calls.users.githubLogin, async ({ body, request, reply }) => {
    const signInWithGitHub = deps.signInWithGitHub;
    if (!signInWithGitHub) throw new AppError("service-unavailable", "GitHub sign-in is not configured.");
    await consumeRateLimit(deps.database.db, AUTH_RATE_LIMITS.login[0], request.ip);
    const { userId, session } = await oauthSignIn(
      request,
      reply,
      () => signInWithGitHub(body.credential),
      body.rememberMe,
      "GitHub",
    );
    setSessionCookie(reply, session, secureCookies);
    return getUserInfo(deps.database.db, userId);
  });

  registerCall(app, deps, calls.users.logout, async ({ user, reply }) => {
    await endSession(deps.database.db, user.sessionId);
    clearSessionCookie(reply, secureCookies);
    return {};
  });

  registerCall(app, deps, calls.users.logoutAllSessions, async ({ user, reply }) => {
    await endAllSessions(deps.database.db, user.userId);
    clearSessionCookie(reply, secureCookies);
    return {};
  });
}

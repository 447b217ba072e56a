import {
  PASSKEY_CEREMONY_FAILED,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_RECOGNISED,
  type Passkey,
  TOTP_ISSUER,
} from "@prism/contract";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, isNull, lte } from "drizzle-orm";
import type { AppConfig } from "../../config";
import type { Executor } from "../../db/client";
import { passkeys, webauthnChallenges } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";

/** Transport hints as stored: the browser reported them, we hand them back as they were. */
type Transports = NonNullable<WebAuthnCredential["transports"]>;

/** Where passkeys are bound: the relying party id is the console's host name, from PUBLIC_URL. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export function relyingPartyOf(config: Pick<AppConfig, "appOrigin" | "trustedOrigins">): RelyingParty {
  return {
    id: new URL(config.appOrigin).hostname,
    name: TOTP_ISSUER,
    origins: [config.appOrigin, ...config.trustedOrigins],
  };
}

function toPasskey(row: typeof passkeys.$inferSelect): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

async function storeChallenge(
  db: Executor,
  input: { challenge: string; purpose: "register" | "authenticate"; userId: string | null },
  now = new Date(),
): Promise<void> {
  await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values({
    ...input,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
}

/**
 * Spends a live challenge of the purpose (and user): deleted in the statement that finds it, so one
 * signed response is accepted once at most.
 */
function spendChallenge(db: Executor, purpose: "register" | "authenticate", userId: string | null) {
  return async (challenge: string): Promise<boolean> => {
    const spent = await db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, purpose),
          userId ? eq(webauthnChallenges.userId, userId) : isNull(webauthnChallenges.userId),
          gt(webauthnChallenges.expiresAt, new Date()),
        ),
      )
      .returning({ id: webauthnChallenges.id });
    return spent.length > 0;
  };
}

export async function listPasskeys(db: Executor, userId: string): Promise<Passkey[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map(toPasskey);
}

/** Options for a new discoverable passkey; the user's existing ones are excluded (no duplicates). */
export async function startPasskeyRegistration(
  db: Executor,
  rp: RelyingParty,
  user: { userId: string; email: string; firstName: string; lastName: string },
) {
  const existing = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.userId));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
    userID: new TextEncoder().encode(user.userId),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: row.transports as Transports,
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "register", userId: user.userId });
  return options;
}

export async function finishPasskeyRegistration(
  db: Executor,
  rp: RelyingParty,
  userId: string,
  input: { name: string; response: Record<string, unknown> },
): Promise<Passkey> {
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: spendChallenge(db, "register", userId),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    // A malformed response, a foreign origin or an unknown (spent, expired) challenge.
    throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  }
  if (!verification.verified) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  const { credential } = verification.registrationInfo;
  const [row] = await db
    .insert(passkeys)
    .values({
      userId,
      name: input.name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
    })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  if (!row) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  return toPasskey(row);
}

export async function removePasskey(db: Executor, userId: string, passkeyId: string): Promise<void> {
  if (!isUuid(passkeyId)) throw new AppError("not-found", PASSKEY_NOT_FOUND);
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  if (deleted.length === 0) throw new AppError("not-found", PASSKEY_NOT_FOUND);
}

/** Options to sign in with any discoverable passkey of this site (no user named). */
export async function startPasskeySignIn(db: Executor, rp: RelyingParty) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "preferred" });
  await storeChallenge(db, { challenge: options.challenge, purpose: "authenticate", userId: null });
  return options;
}

/**
 * Checks a passkey's signed answer and returns its user. The signature counter must move forward when
 * the authenticator keeps one (a cloned key shows up as a counter that does not), and is recorded with
 * a conditional update.
 */
export async function finishPasskeySignIn(
  db: Executor,
  rp: RelyingParty,
  response: Record<string, unknown>,
): Promise<string> {
  const credentialId = typeof response.id === "string" ? response.id : "";
  const [row] = credentialId
    ? await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1)
    : [];
  if (!row) throw new AppError("passkey-not-recognised", PASSKEY_NOT_RECOGNISED);
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: spendChallenge(db, "authenticate", null),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: row.credentialId,
        publicKey: Buffer.from(row.publicKey, "base64url"),
        counter: row.counter,
        transports: row.transports as Transports,
      },
      requireUserVerification: false,
    });
  } catch {
    throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  }
  if (!verification.verified) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  const updated = await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, row.id), eq(passkeys.counter, row.counter)))
    .returning({ id: passkeys.id });
  if (updated.length === 0) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  return row.userId;
}

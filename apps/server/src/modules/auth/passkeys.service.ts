import { createHash, randomBytes } from "node:crypto";
import {
  PASSKEY_CEREMONY_FAILED,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_RECOGNISED,
  type Passkey,
  REMOVE_PASSKEY_PAGE,
  TOTP_ISSUER,
} from "@prism/contract";
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AppConfig } from "../../config";
import type { Executor } from "../../db/client";
import type { passkeys } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import {
  advancePasskeyCounter,
  deleteLiveChallenge,
  deletePasskeyByRemovalTokenHash,
  deletePasskeyOfUser,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskeyOnce,
  passkeysOfUser,
} from "./passkeys.store";
import { endAllSessions } from "./session.service";

/**
 * The WebAuthn library with its ASN.1 and X.509 stack is a fifth of the server's start-up when loaded
 * eagerly (issue 16); each ceremony imports it, so it loads with the first one (the module loader keeps it).
 */
const loadWebAuthn = () => import("@simplewebauthn/server");

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
  await insertChallenge(db, input, now);
}

/**
 * Spends a live challenge of the purpose (and user): deleted in the statement that finds it, so one
 * signed response is accepted once at most.
 */
function spendChallenge(db: Executor, purpose: "register" | "authenticate", userId: string | null) {
  return (challenge: string): Promise<boolean> => deleteLiveChallenge(db, { challenge, purpose, userId });
}

export async function listPasskeys(db: Executor, userId: string): Promise<Passkey[]> {
  return (await passkeysOfUser(db, userId)).map(toPasskey);
}

/** Options for a new discoverable passkey; the user's existing ones are excluded (no duplicates). */
export async function startPasskeyRegistration(
  db: Executor,
  rp: RelyingParty,
  user: { userId: string; email: string; firstName: string; lastName: string },
) {
  const existing = await passkeysOfUser(db, user.userId);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
    userID: new TextEncoder().encode(user.userId),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: row.transports,
    })),
    // A passkey stands for both factors, so the device must check its user (PIN or biometrics) when
    // the key is made and at every sign-in; a key that only proves presence is not accepted.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "register", userId: user.userId });
  return options;
}

const hashRemovalToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Checks the authenticator's answer and keeps the new passkey. Returns with it the token of the
 * passkey-added mail's removal link (only its SHA-256 is stored), for that mail alone.
 */
export async function finishPasskeyRegistration(
  db: Executor,
  rp: RelyingParty,
  userId: string,
  input: { name: string; response: Record<string, unknown> },
): Promise<{ passkey: Passkey; removalToken: string }> {
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    const { verifyRegistrationResponse } = await loadWebAuthn();
    verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: spendChallenge(db, "register", userId),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    // A malformed response, a foreign origin or an unknown (spent, expired) challenge.
    throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  }
  if (!verification.verified) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  const { credential } = verification.registrationInfo;
  const removalToken = randomBytes(32).toString("base64url");
  const row = await insertPasskeyOnce(db, {
    removalTokenHash: hashRemovalToken(removalToken),
    userId,
    name: input.name,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: credential.transports ?? [],
  });
  if (!row) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  return { passkey: toPasskey(row), removalToken };
}

/**
 * The passkey-added mail's "it wasn't me" link: removes that passkey and ends every session of its
 * account in one transaction, so whoever added it keeps neither the passkey nor a session. A token
 * that names no passkey (already removed, or made up) is "not found".
 */
export async function removePasskeyWithLink(db: Executor, token: string): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await deletePasskeyByRemovalTokenHash(tx, hashRemovalToken(token));
    if (!removed) throw new AppError("not-found", REMOVE_PASSKEY_PAGE.invalid);
    await endAllSessions(tx, removed.userId);
  });
}

export async function removePasskey(db: Executor, userId: string, passkeyId: string): Promise<void> {
  if (!isUuid(passkeyId)) throw new AppError("not-found", PASSKEY_NOT_FOUND);
  if (!(await deletePasskeyOfUser(db, userId, passkeyId))) throw new AppError("not-found", PASSKEY_NOT_FOUND);
}

/** Options to sign in with any discoverable passkey of this site (no user named). */
export async function startPasskeySignIn(db: Executor, rp: RelyingParty) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required" });
  await storeChallenge(db, { challenge: options.challenge, purpose: "authenticate", userId: null });
  return options;
}

/**
 * Options to confirm a sensitive action with one of the user's own passkeys; the challenge is bound to
 * the user, so only `verifyPasskeyOfUser` for that user can spend it.
 */
export async function startPasskeyReauthentication(
  db: Executor,
  rp: RelyingParty,
  userId: string,
  userPasskeys: readonly (typeof passkeys.$inferSelect)[],
) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: userPasskeys.map((row) => ({ id: row.credentialId, transports: row.transports })),
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "authenticate", userId });
  return options;
}

/**
 * Checks a passkey's signed answer against `row` and a challenge spent by `spend`. The signature
 * counter must move forward when the authenticator keeps one (a cloned key shows up as a counter that
 * does not), and is recorded with a conditional update.
 */
async function verifyPasskeyAnswer(
  db: Executor,
  rp: RelyingParty,
  row: typeof passkeys.$inferSelect,
  response: Record<string, unknown>,
  spend: (challenge: string) => Promise<boolean>,
): Promise<void> {
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    const { verifyAuthenticationResponse } = await loadWebAuthn();
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: spend,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: row.credentialId,
        publicKey: Buffer.from(row.publicKey, "base64url"),
        counter: row.counter,
        transports: row.transports,
      },
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  }
  if (!verification.verified) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
  const advanced = await advancePasskeyCounter(db, {
    id: row.id,
    fromCounter: row.counter,
    toCounter: verification.authenticationInfo.newCounter,
  });
  if (!advanced) throw new AppError("passkey-verification-failed", PASSKEY_CEREMONY_FAILED);
}

const credentialIdOf = (response: Record<string, unknown>) =>
  typeof response.id === "string" ? response.id : "";

/** Checks a sign-in's passkey answer (any user's passkey, no user named) and returns its user. */
export async function finishPasskeySignIn(
  db: Executor,
  rp: RelyingParty,
  response: Record<string, unknown>,
): Promise<string> {
  const credentialId = credentialIdOf(response);
  const row = credentialId ? await findPasskeyByCredentialId(db, credentialId) : undefined;
  if (!row) throw new AppError("passkey-not-recognised", PASSKEY_NOT_RECOGNISED);
  await verifyPasskeyAnswer(db, rp, row, response, spendChallenge(db, "authenticate", null));
  return row.userId;
}

/** Checks a re-authentication's passkey answer: it must be one of this user's passkeys. */
export async function verifyPasskeyOfUser(
  db: Executor,
  rp: RelyingParty,
  userId: string,
  response: Record<string, unknown>,
): Promise<void> {
  const credentialId = credentialIdOf(response);
  const row = credentialId ? await findPasskeyByCredentialId(db, credentialId) : undefined;
  if (!row || row.userId !== userId) throw new AppError("passkey-not-recognised", PASSKEY_NOT_RECOGNISED);
  await verifyPasskeyAnswer(db, rp, row, response, spendChallenge(db, "authenticate", userId));
}

import type { AppConfig } from "../../config";

export interface OAuthProfile {
  provider: "google" | "github";
  /** The provider's stable user id. */
  subject: string;
  /** A verified email, or undefined when the provider gave none. */
  email: string | undefined;
  firstName: string;
  lastName: string;
}

export class OAuthVerificationError extends Error {}

const GOOGLE_ISSUERS = ["accounts.google.com", "https://accounts.google.com"];

/** Verifies Google ID tokens (from Google Identity Services) against Google's published keys. */
export function createGoogleVerifier(google: NonNullable<AppConfig["google"]>) {
  // jose is loaded with the first Google sign-in, not at start-up (issue 16); the key set is made once
  // so its cache of Google's keys lasts.
  let verifier:
    | Promise<{ jose: typeof import("jose"); keys: ReturnType<typeof import("jose").createRemoteJWKSet> }>
    | undefined;
  const connect = () => {
    verifier ??= import("jose").then((jose) => ({
      jose,
      keys: jose.createRemoteJWKSet(new URL(google.jwksUrl)),
    }));
    return verifier;
  };
  return async function verifyGoogleCredential(credential: string): Promise<OAuthProfile> {
    let payload: Record<string, unknown>;
    try {
      const { jose, keys } = await connect();
      ({ payload } = await jose.jwtVerify(credential, keys, {
        issuer: GOOGLE_ISSUERS,
        audience: google.clientId,
        algorithms: ["RS256"],
      }));
    } catch (error) {
      throw new OAuthVerificationError(`Google credential rejected: ${(error as Error).message}`);
    }
    const subject = typeof payload.sub === "string" ? payload.sub : "";
    if (!subject) throw new OAuthVerificationError("Google credential has no subject");
    const email =
      typeof payload.email === "string" && payload.email_verified === true ? payload.email : undefined;
    return {
      provider: "google",
      subject,
      email,
      firstName: typeof payload.given_name === "string" ? payload.given_name : "",
      lastName: typeof payload.family_name === "string" ? payload.family_name : "",
    };
  };
}

export type GoogleVerifier = ReturnType<typeof createGoogleVerifier>;

import type { OAuth2Client } from "arctic";
import type { AppConfig } from "../../config";
import { type OAuthProfile, OAuthVerificationError } from "./google";

interface GitHubUser {
  id?: number;
  login?: string;
  name?: string | null;
}

interface GitHubEmail {
  email?: string;
  primary?: boolean;
  verified?: boolean;
}

/**
 * GitHub sign-in: the authorization code is exchanged for a token with arctic's OAuth 2 client (the
 * endpoints are configurable for GitHub Enterprise and tests), then the user and their primary
 * verified email are read from the REST API.
 */
export function createGitHubSignIn(github: NonNullable<AppConfig["github"]>) {
  // arctic is loaded with the first sign-in, not at start-up (issue 16).
  let client: Promise<OAuth2Client> | undefined;
  const connect = (): Promise<OAuth2Client> => {
    client ??= import("arctic").then(
      ({ OAuth2Client }) => new OAuth2Client(github.clientId, github.clientSecret, null),
    );
    return client;
  };
  const tokenEndpoint = `${github.oauthBaseUrl}/login/oauth/access_token`;

  const getJson = async <T>(path: string, accessToken: string): Promise<T> => {
    const response = await fetch(`${github.apiBaseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: "application/vnd.github+json",
        "user-agent": "prism-console",
      },
      signal: AbortSignal.timeout(7_000),
    });
    if (!response.ok) throw new OAuthVerificationError(`GitHub API ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };

  return async function signInWithGitHub(code: string): Promise<OAuthProfile> {
    let accessToken: string;
    try {
      const tokens = await (await connect()).validateAuthorizationCode(tokenEndpoint, code, null);
      accessToken = tokens.accessToken();
    } catch (error) {
      throw new OAuthVerificationError(`GitHub code exchange failed: ${(error as Error).message}`);
    }
    const user = await getJson<GitHubUser>("/user", accessToken);
    if (typeof user.id !== "number") throw new OAuthVerificationError("GitHub user has no id");
    const emails = await getJson<GitHubEmail[]>("/user/emails", accessToken);
    const primary = Array.isArray(emails)
      ? emails.find(
          (entry) => entry.primary === true && entry.verified === true && typeof entry.email === "string",
        )
      : undefined;
    const [firstName = user.login ?? "", ...rest] = (user.name ?? "").trim().split(/\s+/).filter(Boolean);
    return {
      provider: "github",
      subject: String(user.id),
      email: primary?.email,
      firstName: firstName || user.login || "",
      lastName: rest.join(" "),
    };
  };
}

export type GitHubSignIn = ReturnType<typeof createGitHubSignIn>;

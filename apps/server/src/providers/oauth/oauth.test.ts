import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, sessionCookieOf, signUpAndConfirm } from "../../../test/accounts";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";

const GOOGLE_CLIENT_ID = "prism-test.apps.googleusercontent.com";

describe("Google sign-in", () => {
  let jwks: LocalServer;
  let testApp: TestApp;
  let privateKey: CryptoKey;
  let strangerKey: CryptoKey;

  const googleToken = (
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; audience?: string } = {},
  ) =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer("https://accounts.google.com")
      .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(options.key ?? privateKey);

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    privateKey = pair.privateKey;
    strangerKey = (await generateKeyPair("RS256")).privateKey;
    const publicJwk: JWK = {
      ...(await exportJWK(pair.publicKey)),
      kid: "test-key",
      alg: "RS256",
      use: "sig",
    };
    jwks = await startLocalServer((_request, response) => sendJson(response, 200, { keys: [publicJwk] }));
    testApp = await createTestApp({ GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: `${jwks.url}/oauth2/v3/certs` });
  });

  afterAll(async () => {
    await testApp?.close();
    await jwks?.close();
  });

  it("creates an active account with its first organization from a valid ID token", async () => {
    const email = `google-${Date.now()}@example.com`;
    const credential = await googleToken({
      sub: "google-1",
      email,
      given_name: "Katherine",
      family_name: "Johnson",
    });
    const response = await post(testApp, "/v1/users/google-login-request", { credential, rememberMe: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email, firstName: "Katherine", lastName: "Johnson" });
    expect(response.json().organizations[0].name).toBe("Katherine's Organization");
    expect(sessionCookieOf(response)?.expires).toBeInstanceOf(Date);

    // The same Google identity signs in to the same user again, whatever its email says now.
    const again = await post(testApp, "/v1/users/google-login-request", {
      credential: await googleToken({ sub: "google-1", email: "renamed@example.com" }),
    });
    expect(again.json().id).toBe(response.json().id);
  });

  it("links to an existing account with the same verified email", async () => {
    const { email, userInfo } = await signUpAndConfirm(testApp);
    const response = await post(testApp, "/v1/users/google-login-request", {
      credential: await googleToken({ sub: "google-2", email }),
    });
    expect(response.json().id).toBe(userInfo.id);
    expect(response.json().organizations).toHaveLength(1);
  });

  it("answers email-credentials-not-found without a verified email", async () => {
    const response = await post(testApp, "/v1/users/google-login-request", {
      credential: await googleToken({ sub: "google-3", email: "x@example.com", email_verified: false }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: "email-credentials-not-found",
      message: "Unable to retrieve email from Google. Please try again or contact support.",
    });
  });

  it("refuses a token for another audience or signed by another key", async () => {
    for (const credential of [
      await googleToken({ sub: "g", email: "a@example.com" }, { audience: "someone-else" }),
      await googleToken({ sub: "g", email: "a@example.com" }, { key: strangerKey }),
      "not.a.jwt",
    ]) {
      const response = await post(testApp, "/v1/users/google-login-request", { credential });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe("invalid-credentials");
    }
  });
});

describe("GitHub sign-in", () => {
  let github: LocalServer;
  let testApp: TestApp;
  const email = `octo-${Date.now()}@example.com`;

  beforeAll(async () => {
    github = await startLocalServer((request, response) => {
      if (request.method === "POST" && request.path === "/login/oauth/access_token") {
        const form = new URLSearchParams(request.body);
        const basic = Buffer.from("gh-client:gh-secret").toString("base64");
        if (request.headers.authorization !== `Basic ${basic}`)
          return sendJson(response, 401, { error: "bad_client" });
        if (form.get("code") === "good-code")
          return sendJson(response, 200, { access_token: "gho_token", token_type: "bearer" });
        if (form.get("code") === "no-email-code") {
          return sendJson(response, 200, { access_token: "gho_noemail", token_type: "bearer" });
        }
        return sendJson(response, 200, {
          error: "bad_verification_code",
          error_description: "The code is incorrect.",
        });
      }
      const token = request.headers.authorization?.replace("Bearer ", "");
      if (request.path === "/user" && token) {
        return sendJson(response, 200, {
          id: token === "gho_token" ? 4242 : 4343,
          login: "octocat",
          name: "Mona Lisa Octocat",
        });
      }
      if (request.path === "/user/emails" && token === "gho_token") {
        return sendJson(response, 200, [
          { email: "old@example.com", primary: false, verified: true },
          { email, primary: true, verified: true },
        ]);
      }
      if (request.path === "/user/emails" && token === "gho_noemail") {
        return sendJson(response, 200, [{ email: "unverified@example.com", primary: true, verified: false }]);
      }
      sendJson(response, 404, { message: "Not Found" });
    });
    testApp = await createTestApp({
      GITHUB_CLIENT_ID: "gh-client",
      GITHUB_CLIENT_SECRET: "gh-secret",
      GITHUB_OAUTH_BASE_URL: github.url,
      GITHUB_API_BASE_URL: github.url,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await github?.close();
  });

  it("exchanges the code and signs in with the primary verified email", async () => {
    const response = await post(testApp, "/v1/users/github-login-request", { credential: "good-code" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email, firstName: "Mona", lastName: "Lisa Octocat" });
    expect(sessionCookieOf(response)?.value).toBeTruthy();
  });

  it("answers email-credentials-not-found when GitHub has no verified primary email", async () => {
    const response = await post(testApp, "/v1/users/github-login-request", { credential: "no-email-code" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      "Unable to retrieve email from GitHub. Please try again or contact support.",
    );
  });

  it("refuses a bad code", async () => {
    const response = await post(testApp, "/v1/users/github-login-request", { credential: "bad-code" });
    expect(response.statusCode).toBe(401);
  });

  it("publishes the client id and authorize URL only", async () => {
    const config = (await post(testApp, "/v1/public-config")).json();
    expect(config.github).toEqual({
      clientId: "gh-client",
      authorizeUrl: `${github.url}/login/oauth/authorize`,
    });
    expect(config.googleClientId).toBeNull();
  });
});

describe("sign-in providers not configured", () => {
  it("answers 503 for Google and GitHub", async () => {
    const testApp = await createTestApp();
    try {
      for (const url of ["/v1/users/google-login-request", "/v1/users/github-login-request"]) {
        const response = await post(testApp, url, { credential: "anything" });
        expect(response.statusCode).toBe(503);
      }
    } finally {
      await testApp.close();
    }
  });
});

import {
  INVALID_TWO_FACTOR_CODE,
  RECOVERY_CODE_COUNT,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_MAX_ATTEMPTS,
  TWO_FACTOR_REQUIRED,
  TWO_FACTOR_SIGN_IN_EXPIRED,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  post,
  STRONG_PASSWORD,
  sessionCookieOf,
  signUpAndConfirm,
  TestBrowser,
} from "../../../test/accounts";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { pendingSignIns, recoveryCodes, sessions, userTotp } from "../../db/schema";
import { SESSION_COOKIE } from "./session-cookie";
import { createTotpSecretBox } from "./totp-secret-box";

const GOOGLE_CLIENT_ID = "prism-2fa-test.apps.googleusercontent.com";

/** The code an authenticator app shows for `secret`, `steps` periods from now. */
function codeAt(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_SECONDS });
}

describe("two-factor sign-in", () => {
  let testApp: TestApp;
  let jwks: LocalServer;
  let github: LocalServer;
  let googleKey: CryptoKey;
  /** The verified primary email GitHub reports for the signed-in GitHub user. */
  let githubEmail = "";

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    googleKey = pair.privateKey;
    const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "k", alg: "RS256", use: "sig" };
    jwks = await startLocalServer((_request, response) => sendJson(response, 200, { keys: [publicJwk] }));
    // GitHub's OAuth code exchange and user API, as the provider calls them (see oauth.test.ts).
    github = await startLocalServer((request, response) => {
      if (request.method === "POST" && request.path === "/login/oauth/access_token") {
        return sendJson(response, 200, { access_token: "gho_2fa", token_type: "bearer" });
      }
      if (request.headers.authorization !== "Bearer gho_2fa") return sendJson(response, 401, {});
      if (request.path === "/user")
        return sendJson(response, 200, { id: 2024, login: "octo", name: "Octo Cat" });
      if (request.path === "/user/emails") {
        return sendJson(response, 200, [{ email: githubEmail, primary: true, verified: true }]);
      }
      sendJson(response, 404, { message: "Not Found" });
    });
    testApp = await createTestApp({
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: `${jwks.url}/certs`,
      GITHUB_CLIENT_ID: "gh-client",
      GITHUB_CLIENT_SECRET: "gh-secret",
      GITHUB_OAUTH_BASE_URL: github.url,
      GITHUB_API_BASE_URL: github.url,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await jwks?.close();
    await github?.close();
  });

  /** A confirmed account that enrolled: its secret and recovery codes. */
  async function enrolledUser() {
    const user = await signUpAndConfirm(testApp);
    const started = await post(testApp, "/v1/users/two-factor/start", {}, { session: user.session });
    expect(started.statusCode).toBe(200);
    const { secret } = started.json();
    const enabled = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await codeAt(secret) },
      { session: user.session },
    );
    expect(enabled.statusCode).toBe(200);
    return { ...user, secret: secret as string, recoveryCodes: enabled.json().recoveryCodes as string[] };
  }

  /** Signs in with the password in a fresh browser, which is then asked for the second factor. */
  async function passwordStep(user: { email: string }) {
    const browser = new TestBrowser(testApp);
    const response = await browser.post("/v1/users/login", { email: user.email, password: STRONG_PASSWORD });
    return { browser, response };
  }

  it("enrols with a QR code and a first code, and shows the recovery codes once, stored hashed", async () => {
    const user = await signUpAndConfirm(testApp);
    const status = await post(testApp, "/v1/users/two-factor/status", {}, { session: user.session });
    expect(status.json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const started = await post(testApp, "/v1/users/two-factor/start", {}, { session: user.session });
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCodeSvg } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toContain(encodeURIComponent(user.email));
    expect(qrCodeSvg).toMatch(/^<svg/);

    // Until confirmed, the password alone still signs in.
    expect((await passwordStep(user)).response.statusCode).toBe(200);

    const wrong = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: "000000" },
      { session: user.session },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: "invalid-two-factor-code",
      message: INVALID_TWO_FACTOR_CODE,
    });

    const enabled = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await codeAt(secret) },
      { session: user.session },
    );
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().recoveryCodes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    const stored = await testApp.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.userInfo.id));
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const storedText = JSON.stringify(stored);
    for (const code of codes) {
      expect(storedText).not.toContain(code);
      expect(storedText).not.toContain(code.replace("-", ""));
    }
    // The authenticator secret is stored sealed, never as the secret itself.
    const [totp] = await testApp.database.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.userId, user.userInfo.id));
    expect(totp?.secret).toMatch(/^v1:/);
    expect(totp?.secret).not.toContain(secret);
    const again = await post(testApp, "/v1/users/two-factor/status", {}, { session: user.session });
    expect(again.json()).toEqual({ enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    const restart = await post(testApp, "/v1/users/two-factor/start", {}, { session: user.session });
    expect(restart.statusCode).toBe(409);
    expect(restart.json().error).toBe("two-factor-already-enabled");
  });

  it("asks for the code after the password and creates the session only after it", async () => {
    const user = await enrolledUser();
    const sessionsBefore = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userInfo.id));
    const { browser, response } = await passwordStep(user);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "two-factor-required", message: TWO_FACTOR_REQUIRED });
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(browser.session).toBeUndefined();
    const sessionsBetween = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userInfo.id));
    expect(sessionsBetween).toHaveLength(sessionsBefore.length);

    // The next step's code (the app a little ahead) is accepted: the enrolment spent the current one.
    const verified = await browser.post("/v1/users/two-factor/verify", {
      code: await codeAt(user.secret, 1),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ email: user.email });
    expect(browser.session).toBeTruthy();
    const me = await post(testApp, "/v1/users/me", {}, { session: browser.session });
    expect(me.statusCode).toBe(200);
    // The pending step is gone: it yields one session only.
    const pending = await testApp.database.db
      .select()
      .from(pendingSignIns)
      .where(eq(pendingSignIns.userId, user.userInfo.id));
    expect(pending).toEqual([]);
  });

  it("refuses a code that was already used, within its window", async () => {
    const user = await enrolledUser();
    const code = await codeAt(user.secret, 1);
    const first = await passwordStep(user);
    expect((await first.browser.post("/v1/users/two-factor/verify", { code })).statusCode).toBe(200);

    const second = await passwordStep(user);
    const replay = await second.browser.post("/v1/users/two-factor/verify", { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      error: "invalid-two-factor-code",
      message: INVALID_TWO_FACTOR_CODE,
    });
    expect(second.browser.session).toBeUndefined();
    // An older code (the current step, before the one used) is refused too.
    const older = await second.browser.post("/v1/users/two-factor/verify", {
      code: await codeAt(user.secret),
    });
    expect(older.statusCode).toBe(400);
  });

  it("accepts one code once when two browsers race with it", async () => {
    const user = await enrolledUser();
    const code = await codeAt(user.secret, 1);
    const first = await passwordStep(user);
    const second = await passwordStep(user);
    const answers = await Promise.all([
      first.browser.post("/v1/users/two-factor/verify", { code }),
      second.browser.post("/v1/users/two-factor/verify", { code }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    expect([first.browser.session, second.browser.session].filter(Boolean)).toHaveLength(1);
  });

  it("signs in with a recovery code once, in any case and with or without its dash", async () => {
    const user = await enrolledUser();
    const recovery = user.recoveryCodes[3] ?? "";
    const first = await passwordStep(user);
    const verified = await first.browser.post("/v1/users/two-factor/verify", {
      code: ` ${recovery.toUpperCase().replace("-", " ")} `,
    });
    expect(verified.statusCode).toBe(200);
    expect(first.browser.session).toBeTruthy();

    const second = await passwordStep(user);
    const reused = await second.browser.post("/v1/users/two-factor/verify", { code: recovery });
    expect(reused.statusCode).toBe(400);
    const status = await post(testApp, "/v1/users/two-factor/status", {}, { session: first.browser.session });
    expect(status.json().recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it("generates new recovery codes: the old ones stop working, the new ones sign in", async () => {
    const user = await enrolledUser();
    const regenerated = await post(
      testApp,
      "/v1/users/two-factor/regenerate-recovery-codes",
      {},
      { session: user.session },
    );
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const fresh: string[] = regenerated.json().recoveryCodes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh.filter((code) => user.recoveryCodes.includes(code))).toEqual([]);

    const old = await passwordStep(user);
    expect(
      (await old.browser.post("/v1/users/two-factor/verify", { code: user.recoveryCodes[0] })).statusCode,
    ).toBe(400);
    const renewed = await passwordStep(user);
    expect((await renewed.browser.post("/v1/users/two-factor/verify", { code: fresh[0] })).statusCode).toBe(
      200,
    );

    // Without two-factor there is nothing to regenerate.
    const plain = await signUpAndConfirm(testApp);
    const refused = await post(
      testApp,
      "/v1/users/two-factor/regenerate-recovery-codes",
      {},
      { session: plain.session },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("two-factor-not-enabled");
  });

  it("throttles wrong codes: 5 tries, then a wait, even for the right code", async () => {
    const user = await enrolledUser();
    const { browser } = await passwordStep(user);
    for (let attempt = 0; attempt < TWO_FACTOR_MAX_ATTEMPTS; attempt += 1) {
      const wrong = await browser.post("/v1/users/two-factor/verify", { code: "999999" });
      expect(wrong.statusCode).toBe(400);
    }
    const locked = await browser.post("/v1/users/two-factor/verify", { code: await codeAt(user.secret, 1) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe("rate-limited");
    expect(locked.json().message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    expect(browser.session).toBeUndefined();
    // Another browser of the same account is held back too: the count is the account's.
    const other = await passwordStep(user);
    const alsoLocked = await other.browser.post("/v1/users/two-factor/verify", {
      code: user.recoveryCodes[0],
    });
    expect(alsoLocked.statusCode).toBe(429);
  });

  it("refuses the second step without a pending sign-in, and after it expired", async () => {
    const user = await enrolledUser();
    const stranger = new TestBrowser(testApp);
    const none = await stranger.post("/v1/users/two-factor/verify", { code: await codeAt(user.secret, 1) });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      error: "two-factor-sign-in-expired",
      message: TWO_FACTOR_SIGN_IN_EXPIRED,
    });

    const { browser } = await passwordStep(user);
    await testApp.database.db
      .update(pendingSignIns)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingSignIns.userId, user.userInfo.id));
    const expired = await browser.post("/v1/users/two-factor/verify", { code: await codeAt(user.secret, 1) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe("two-factor-sign-in-expired");
    expect(browser.session).toBeUndefined();
  });

  it("asks Google sign-in for the second factor too", async () => {
    const user = await enrolledUser();
    const credential = await new SignJWT({ email_verified: true, sub: `g-${user.email}`, email: user.email })
      .setProtectedHeader({ alg: "RS256", kid: "k" })
      .setIssuer("https://accounts.google.com")
      .setAudience(GOOGLE_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(googleKey);
    const browser = new TestBrowser(testApp);
    const response = await browser.post("/v1/users/google-login-request", { credential, rememberMe: true });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe("two-factor-required");
    expect(browser.session).toBeUndefined();
    const verified = await browser.post("/v1/users/two-factor/verify", { code: user.recoveryCodes[0] });
    expect(verified.statusCode).toBe(200);
    // Remember Me chosen at the first step holds for the session the second step creates.
    const cookie = verified.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
    expect(cookie?.maxAge).toBeGreaterThan(24 * 3600);
  });

  it("asks GitHub sign-in for the second factor too", async () => {
    const user = await enrolledUser();
    githubEmail = user.email;
    const browser = new TestBrowser(testApp);
    const response = await browser.post("/v1/users/github-login-request", {
      credential: "github-code",
      rememberMe: false,
    });
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toMatchObject({ error: "two-factor-required", message: TWO_FACTOR_REQUIRED });
    expect(browser.session).toBeUndefined();
    expect(
      await testApp.database.db
        .select()
        .from(pendingSignIns)
        .where(eq(pendingSignIns.userId, user.userInfo.id)),
    ).toHaveLength(1);

    const verified = await browser.post("/v1/users/two-factor/verify", {
      code: await codeAt(user.secret, 1),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().email).toBe(user.email);
    expect(browser.session).toBeTruthy();
    expect(
      await testApp.database.db
        .select()
        .from(pendingSignIns)
        .where(eq(pendingSignIns.userId, user.userInfo.id)),
    ).toEqual([]);
  });

  it("disables only with a current code or a recovery code", async () => {
    const user = await enrolledUser();
    const refused = await post(
      testApp,
      "/v1/users/two-factor/disable",
      { code: "000000" },
      { session: user.session },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(INVALID_TWO_FACTOR_CODE);
    expect(
      await testApp.database.db.select().from(userTotp).where(eq(userTotp.userId, user.userInfo.id)),
    ).toHaveLength(1);

    const disabled = await post(
      testApp,
      "/v1/users/two-factor/disable",
      { code: user.recoveryCodes[9] },
      { session: user.session },
    );
    expect(disabled.statusCode).toBe(200);
    expect(
      await testApp.database.db.select().from(userTotp).where(eq(userTotp.userId, user.userInfo.id)),
    ).toEqual([]);
    expect(
      await testApp.database.db
        .select()
        .from(recoveryCodes)
        .where(eq(recoveryCodes.userId, user.userInfo.id)),
    ).toEqual([]);
    // The password alone signs in again.
    expect((await passwordStep(user)).response.statusCode).toBe(200);
    const again = await post(
      testApp,
      "/v1/users/two-factor/disable",
      { code: "000000" },
      { session: user.session },
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("two-factor-not-enabled");
  });

  it("refuses every code of a stored secret that was altered, while recovery codes still sign in", async () => {
    const user = await enrolledUser();
    const [totp] = await testApp.database.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.userId, user.userInfo.id));
    // One character of the ciphertext changed (its first: every bit of it counts, unlike the last's).
    const [version, iv, tag, ciphertext = ""] = (totp?.secret ?? "").split(":");
    const altered = `${ciphertext[0] === "A" ? "B" : "A"}${ciphertext.slice(1)}`;
    await testApp.database.db
      .update(userTotp)
      .set({ secret: [version, iv, tag, altered].join(":") })
      .where(eq(userTotp.userId, user.userInfo.id));

    const { browser } = await passwordStep(user);
    const refused = await browser.post("/v1/users/two-factor/verify", { code: await codeAt(user.secret, 1) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: "invalid-two-factor-code",
      message: INVALID_TWO_FACTOR_CODE,
    });
    expect(browser.session).toBeUndefined();
    const recovered = await browser.post("/v1/users/two-factor/verify", { code: user.recoveryCodes[0] });
    expect(recovered.statusCode).toBe(200);
  });

  it("accepts a secret stored in clear before encryption and seals it at its next accepted code", async () => {
    const user = await enrolledUser();
    await testApp.database.db
      .update(userTotp)
      .set({ secret: user.secret })
      .where(eq(userTotp.userId, user.userInfo.id));

    const { browser } = await passwordStep(user);
    const verified = await browser.post("/v1/users/two-factor/verify", {
      code: await codeAt(user.secret, 1),
    });
    expect(verified.statusCode).toBe(200);
    const [totp] = await testApp.database.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.userId, user.userInfo.id));
    expect(totp?.secret).toMatch(/^v1:/);
    expect(totp?.secret).not.toContain(user.secret);

    // Sealed under the server's key, to the same secret.
    expect(createTotpSecretBox(testApp.config.appSecret).open(user.userInfo.id, totp?.secret ?? "")).toBe(
      user.secret,
    );
  });

  it("seals a pending secret stored in clear before encryption when the enrolment is confirmed", async () => {
    const user = await signUpAndConfirm(testApp);
    const started = await post(testApp, "/v1/users/two-factor/start", {}, { session: user.session });
    const secret: string = started.json().secret;
    await testApp.database.db.update(userTotp).set({ secret }).where(eq(userTotp.userId, user.userInfo.id));

    const enabled = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await codeAt(secret) },
      { session: user.session },
    );
    expect(enabled.statusCode).toBe(200);
    const [totp] = await testApp.database.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.userId, user.userInfo.id));
    expect(totp?.confirmedAt).not.toBeNull();
    expect(totp?.secret).toMatch(/^v1:/);
    expect(createTotpSecretBox(testApp.config.appSecret).open(user.userInfo.id, totp?.secret ?? "")).toBe(
      secret,
    );
  });
});

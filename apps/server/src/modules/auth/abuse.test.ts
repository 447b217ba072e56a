import { randomUUID } from "node:crypto";
import {
  REAUTHENTICATION_REQUIRED,
  REAUTHENTICATION_WINDOW_MINUTES,
  REMEMBER_ME_SESSION_MS,
  REMOVE_PASSKEY_LINK_PATH,
  REMOVE_PASSKEY_PAGE,
  SESSION_MS,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  latestCodeFor,
  post,
  STRONG_PASSWORD,
  signUpAndConfirm,
  TestBrowser,
  uniqueEmail,
} from "../../../test/accounts";
import { CONTROL_CHARACTER_NAMES, expectControlCharactersRefused } from "../../../test/control-characters";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { SoftwareAuthenticator } from "../../../test/software-authenticator";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { passkeys, sessions, users, userTotp, webauthnChallenges } from "../../db/schema";
import { hashPassword, verifyPassword } from "../../providers/password-hashing";
import { SESSION_COOKIE } from "./session-cookie";

const OWNER_PASSWORD = "Owner-passw0rd!";
const ATTACKER_PASSWORD = "Attacker-passw0rd!";
const GOOGLE_CLIENT_ID = "prism-abuse.apps.googleusercontent.com";

/** Every password verification the server makes, recorded by wrapping the real argon2 verifier. */
const verifications: string[] = [];
const countingPasswords = {
  hash: hashPassword,
  verify: (hash: string, password: string) => {
    verifications.push(hash);
    return verifyPassword(hash, password);
  },
};

describe("account abuse", () => {
  let testApp: TestApp;
  let jwks: LocalServer;
  let googleKey: CryptoKey;

  const googleCredential = (subject: string, email: string) =>
    new SignJWT({ email_verified: true, sub: subject, email, given_name: "Real", family_name: "Owner" })
      .setProtectedHeader({ alg: "RS256", kid: "abuse-key" })
      .setIssuer("https://accounts.google.com")
      .setAudience(GOOGLE_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(googleKey);

  const signUp = (browser: TestBrowser, email: string, password: string, firstName = "Someone") =>
    browser.post("/v1/users/create", { firstName, lastName: "X", email, password });

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    googleKey = pair.privateKey;
    const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "abuse-key", alg: "RS256" };
    jwks = await startLocalServer((_request, response) => sendJson(response, 200, { keys: [publicJwk] }));
    testApp = await createTestApp(
      { GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: `${jwks.url}/certs` },
      // The server's password hashing is a dependency; the test counts its verifications.
      { passwords: countingPasswords },
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await jwks?.close();
  });

  describe("nobody obtains a working password for an email they do not control", () => {
    it("refuses the newest code, mailed for an attacker's later sign-up, in the owner's browser", async () => {
      const email = uniqueEmail("victim");
      const owner = new TestBrowser(testApp);
      const attacker = new TestBrowser(testApp, { remoteAddress: "198.51.100.7" });

      expect((await signUp(owner, email, OWNER_PASSWORD, "Owner")).statusCode).toBe(200);
      const ownerCode = await latestCodeFor(testApp, email);
      expect((await signUp(attacker, email, ATTACKER_PASSWORD, "Mallory")).statusCode).toBe(200);
      const attackerCode = await latestCodeFor(testApp, email);
      expect(attackerCode).not.toBe(ownerCode);

      // The owner, reading the newest mail, types the attacker's code in their own browser.
      const newest = await owner.post("/v1/users/confirm", { email, verificationCode: attackerCode });
      expect(newest.statusCode).toBe(400);
      expect(newest.json()).toMatchObject({
        error: "invalid-verification-code",
        message: "Invalid verification code",
      });
      expect(owner.session).toBeUndefined();

      // Their own code still activates the account, with their own password and name.
      const confirmed = await owner.post("/v1/users/confirm", { email, verificationCode: ownerCode });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toMatchObject({ email, firstName: "Owner" });

      const attackerLogin = await attacker.post("/v1/users/login", { email, password: ATTACKER_PASSWORD });
      expect(attackerLogin.statusCode).toBe(401);
      expect(attackerLogin.json().error).toBe("invalid-credentials");
      expect(attacker.session).toBeUndefined();
      const ownerLogin = await new TestBrowser(testApp).post("/v1/users/login", {
        email,
        password: OWNER_PASSWORD,
      });
      expect(ownerLogin.statusCode).toBe(200);
    });

    it("refuses a code mailed by the attacker's sign-in of the pending account", async () => {
      const email = uniqueEmail("victim");
      const owner = new TestBrowser(testApp);
      const attacker = new TestBrowser(testApp, { remoteAddress: "198.51.100.8" });
      await signUp(owner, email, OWNER_PASSWORD);
      const ownerCode = await latestCodeFor(testApp, email);
      await signUp(attacker, email, ATTACKER_PASSWORD);
      // Signing in to the unverified account with the attacker's password mails yet another code.
      const pendingLogin = await attacker.post("/v1/users/login", { email, password: ATTACKER_PASSWORD });
      expect(pendingLogin.statusCode).toBe(403);
      expect(pendingLogin.json().error).toBe("user-not-active");
      const loginCode = await latestCodeFor(testApp, email);

      const refused = await owner.post("/v1/users/confirm", { email, verificationCode: loginCode });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe("invalid-verification-code");
      const [pending] = await testApp.database.db.select().from(users).where(eq(users.email, email));
      expect(pending?.isActive).toBe(false);

      expect((await owner.post("/v1/users/confirm", { email, verificationCode: ownerCode })).statusCode).toBe(
        200,
      );
      const attackerLogin = await attacker.post("/v1/users/login", { email, password: ATTACKER_PASSWORD });
      expect(attackerLogin.statusCode).toBe(401);
    });

    it("activates a sign-up only in the browser that started it", async () => {
      const email = uniqueEmail("elsewhere");
      const starter = new TestBrowser(testApp);
      await signUp(starter, email, OWNER_PASSWORD);
      const code = await latestCodeFor(testApp, email);

      // The right code, typed in a browser that did not start this sign-up, activates nothing.
      const other = new TestBrowser(testApp);
      const refused = await other.post("/v1/users/confirm", { email, verificationCode: code });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe("invalid-verification-code");
      expect(other.session).toBeUndefined();

      // A password-reset code is no sign-up code either.
      await new TestBrowser(testApp).post("/v1/users/forgot-password", { email });
      const resetCode = await latestCodeFor(testApp, email);
      const withResetCode = await starter.post("/v1/users/confirm", { email, verificationCode: resetCode });
      expect(withResetCode.statusCode).toBe(400);
      expect(withResetCode.json().error).toBe("invalid-verification-code");

      const confirmed = await starter.post("/v1/users/confirm", { email, verificationCode: code });
      expect(confirmed.statusCode).toBe(200);
      expect(starter.session).toBeTruthy();
    });

    it("keeps an attacker who signed up first out once the owner signs up and confirms", async () => {
      const email = uniqueEmail("preregistered");
      const attacker = new TestBrowser(testApp, { remoteAddress: "198.51.100.9" });
      const owner = new TestBrowser(testApp);
      await signUp(attacker, email, ATTACKER_PASSWORD);
      const attackerCode = await latestCodeFor(testApp, email);
      await signUp(owner, email, OWNER_PASSWORD);
      const ownerCode = await latestCodeFor(testApp, email);

      expect(
        (await owner.post("/v1/users/confirm", { email, verificationCode: attackerCode })).statusCode,
      ).toBe(400);
      expect((await owner.post("/v1/users/confirm", { email, verificationCode: ownerCode })).statusCode).toBe(
        200,
      );
      const late = await attacker.post("/v1/users/confirm", { email, verificationCode: attackerCode });
      expect(late.json().error).toBe("user-already-active");
      expect(
        (await attacker.post("/v1/users/login", { email, password: ATTACKER_PASSWORD })).statusCode,
      ).toBe(401);
    });

    it("lets an unverified user sign in, get a fresh code and confirm it in that browser", async () => {
      const email = uniqueEmail("returning");
      await signUp(new TestBrowser(testApp), email, OWNER_PASSWORD);
      const later = new TestBrowser(testApp);
      const pending = await later.post("/v1/users/login", { email, password: OWNER_PASSWORD });
      expect(pending.statusCode).toBe(403);
      const confirmed = await later.post("/v1/users/confirm", {
        email,
        verificationCode: await latestCodeFor(testApp, email),
      });
      expect(confirmed.statusCode).toBe(200);
      expect(
        (await new TestBrowser(testApp).post("/v1/users/login", { email, password: OWNER_PASSWORD }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe("Google sign-in on a pending account", () => {
    it("activates it without the pending sign-up's password; forgot password sets one", async () => {
      const email = uniqueEmail("oauth-victim");
      const attacker = new TestBrowser(testApp, { remoteAddress: "198.51.100.10" });
      await signUp(attacker, email, ATTACKER_PASSWORD);

      const owner = new TestBrowser(testApp);
      const google = await owner.post("/v1/users/google-login-request", {
        credential: await googleCredential("google-abuse-1", email),
      });
      expect(google.statusCode).toBe(200);
      const [activated] = await testApp.database.db.select().from(users).where(eq(users.email, email));
      expect(activated?.isActive).toBe(true);
      expect(activated?.passwordHash).toBeNull();

      const attackerLogin = await attacker.post("/v1/users/login", { email, password: ATTACKER_PASSWORD });
      expect(attackerLogin.statusCode).toBe(401);
      expect(attackerLogin.json()).toMatchObject({
        error: "invalid-credentials",
        message: "Invalid password",
      });
      expect(attacker.session).toBeUndefined();

      // The codes the pending sign-up asked for died with it.
      const lateConfirm = await attacker.post("/v1/users/confirm", {
        email,
        verificationCode: await latestCodeFor(testApp, email),
      });
      expect(lateConfirm.json().error).toBe("user-already-active");

      await owner.post("/v1/users/forgot-password", { email });
      const reset = await owner.post("/v1/users/reset-password", {
        email,
        password: OWNER_PASSWORD,
        resetCode: await latestCodeFor(testApp, email),
      });
      expect(reset.statusCode).toBe(200);
      const login = await new TestBrowser(testApp).post("/v1/users/login", {
        email,
        password: OWNER_PASSWORD,
      });
      expect(login.statusCode).toBe(200);
    });
  });

  describe("login timing", () => {
    it("verifies a password hash for an unknown email as it does for a known one", async () => {
      const known = await signUpAndConfirm(testApp);
      const oauthOnly = uniqueEmail("oauth-only");
      await new TestBrowser(testApp).post("/v1/users/google-login-request", {
        credential: await googleCredential("google-abuse-2", oauthOnly),
      });
      const browser = new TestBrowser(testApp);

      verifications.length = 0;
      const wrong = await browser.post("/v1/users/login", {
        email: known.email,
        password: "Wrong-passw0rd!",
      });
      expect(wrong.json().error).toBe("invalid-credentials");
      const forKnown = verifications.length;
      expect(forKnown).toBe(1);

      verifications.length = 0;
      const unknown = await browser.post("/v1/users/login", {
        email: uniqueEmail("nobody"),
        password: "Wrong-passw0rd!",
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toBe("user-not-found");
      expect(verifications).toHaveLength(forKnown);
      // Against a real argon2id hash with the same cost, not a shortcut.
      expect(verifications[0]).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);

      verifications.length = 0;
      const noPassword = await browser.post("/v1/users/login", {
        email: oauthOnly,
        password: "Wrong-passw0rd!",
      });
      expect(noPassword.statusCode).toBe(401);
      expect(verifications).toHaveLength(forKnown);
    });
  });

  describe("session lifetime", () => {
    it("gives a session without Remember Me a one-day cookie that outlives a browser restart", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const login = await new TestBrowser(testApp).post("/v1/users/login", {
        email,
        password: STRONG_PASSWORD,
        rememberMe: false,
      });
      expect(login.statusCode).toBe(200);
      const header = [login.headers["set-cookie"]]
        .flat()
        .find((value) => value?.startsWith("prism_session="));
      expect(header).toContain(`Max-Age=${SESSION_MS / 1000}`);
      const expires = /Expires=([^;]+)/.exec(header ?? "")?.[1];
      expect(Math.abs(new Date(expires ?? 0).getTime() - (Date.now() + SESSION_MS))).toBeLessThan(60_000);
    });

    it("gives the session a verified sign-up starts a one-day cookie too", async () => {
      const email = uniqueEmail("fresh");
      const browser = new TestBrowser(testApp);
      await signUp(browser, email, OWNER_PASSWORD);
      const confirmed = await browser.post("/v1/users/confirm", {
        email,
        verificationCode: await latestCodeFor(testApp, email),
      });
      const header = [confirmed.headers["set-cookie"]]
        .flat()
        .find((value) => value?.startsWith("prism_session="));
      expect(header).toContain(`Max-Age=${SESSION_MS / 1000}`);
    });

    it("keeps a Remember Me session's cookie for a year", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const login = await new TestBrowser(testApp).post("/v1/users/login", {
        email,
        password: STRONG_PASSWORD,
        rememberMe: true,
      });
      const header = [login.headers["set-cookie"]]
        .flat()
        .find((value) => value?.startsWith("prism_session="));
      expect(header).toContain(`Max-Age=${REMEMBER_ME_SESSION_MS / 1000}`);
    });
  });

  it("refuses control characters in first and last names, at sign-up and on the profile", async () => {
    const user = await signUpAndConfirm(testApp, { firstName: "Plain", lastName: "Name" });
    for (const name of Object.values(CONTROL_CHARACTER_NAMES)) {
      const email = uniqueEmail("control");
      const browser = new TestBrowser(testApp);
      for (const names of [
        { firstName: name, lastName: "Name" },
        { firstName: "Plain", lastName: name },
      ]) {
        expectControlCharactersRefused(
          await browser.post("/v1/users/create", { ...names, email, password: STRONG_PASSWORD }),
        );
        expectControlCharactersRefused(
          await post(testApp, "/v1/users/settings/update-profile", names, { session: user.session }),
        );
      }
      // No account was started for the address, and no code mailed to it.
      expect(await testApp.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
      expect((await testApp.deps.outbox.list()).filter((mail) => mail.to === email)).toHaveLength(0);
    }
    const [row] = await testApp.database.db.select().from(users).where(eq(users.email, user.email));
    expect(row).toMatchObject({ firstName: "Plain", lastName: "Name" });
  });
});

/**
 * Issue 27, item 2: somebody holding a copy of a session cookie (malware, a shared computer, a leaked
 * log) must not be able to turn it into lasting access: a passkey, a new password, an authenticator of
 * their own, or a session that outlives the owner's turning two-factor on.
 */
describe("a stolen session cannot make itself permanent", () => {
  let testApp: TestApp;
  let rpId: string;
  const THIEF_ADDRESS = "203.0.113.9";
  const THIEF_BROWSER =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

  beforeAll(async () => {
    testApp = await createTestApp();
    rpId = new URL(testApp.config.appOrigin).hostname;
  });

  afterAll(async () => {
    vi.useRealTimers();
    await testApp?.close();
  });

  /** A call as the thief's own browser makes it, with the stolen cookie. */
  const asThief = (url: string, session: string, payload: object = {}) =>
    testApp.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...SAME_ORIGIN, "user-agent": THIEF_BROWSER },
      cookies: { [SESSION_COOKIE]: session },
      remoteAddress: THIEF_ADDRESS,
    });

  /** Runs `body` with the server's clock `minutes` ahead, as when a cookie is used long after sign-in. */
  async function later<T>(minutes: number, body: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + minutes * 60_000);
    try {
      return await body();
    } finally {
      vi.useRealTimers();
    }
  }

  const passkeysOf = (userId: string) =>
    testApp.database.db.select().from(passkeys).where(eq(passkeys.userId, userId));

  it("refuses a session signed in longer ago than the window a passkey, a password, two-factor changes, and lets a proof through", async () => {
    const owner = await signUpAndConfirm(testApp);
    const stolen = owner.session;
    const minutesLater = REAUTHENTICATION_WINDOW_MINUTES + 1;
    await later(minutesLater, async () => {
      const attempts: [string, object][] = [
        ["/v1/users/passkeys/registration-options", {}],
        ["/v1/users/passkeys/register", { name: "Mine now", response: {} }],
        ["/v1/users/passkeys/remove", { passkeyId: randomUUID() }],
        ["/v1/users/change-password", { password: "Thief-passw0rd!" }],
        ["/v1/users/two-factor/start", {}],
        ["/v1/users/two-factor/enable", { code: "123456" }],
        ["/v1/users/two-factor/disable", { code: "123456" }],
        ["/v1/users/two-factor/regenerate-recovery-codes", {}],
      ];
      for (const [url, payload] of attempts) {
        const refused = await asThief(url, stolen, payload);
        expect(refused.statusCode, `${url} ${refused.body}`).toBe(403);
        expect(refused.json(), url).toMatchObject({
          error: "reauthentication-required",
          message: REAUTHENTICATION_REQUIRED,
        });
      }
      // Nothing changed: no passkey, no ceremony started, no authenticator, the password as it was.
      expect(await passkeysOf(owner.userInfo.id)).toEqual([]);
      expect(
        await testApp.database.db
          .select()
          .from(webauthnChallenges)
          .where(eq(webauthnChallenges.userId, owner.userInfo.id)),
      ).toEqual([]);
      expect(
        await testApp.database.db.select().from(userTotp).where(eq(userTotp.userId, owner.userInfo.id)),
      ).toEqual([]);
      const signIn = await post(testApp, "/v1/users/login", { email: owner.email, password: owner.password });
      expect(signIn.statusCode, signIn.body).toBe(200);

      // Guessing the password does not unlock it, and counts against the account.
      const guess = await asThief("/v1/users/reauthenticate", stolen, {
        method: "password",
        password: "guess",
      });
      expect(guess.statusCode).toBe(400);
      expect(guess.json()).toMatchObject({ error: "invalid-password", message: "Invalid password" });
      expect((await asThief("/v1/users/passkeys/registration-options", stolen)).statusCode).toBe(403);
      // Neither does the password of another account, nor a code the account does not have.
      const code = await asThief("/v1/users/reauthenticate", stolen, { method: "code", code: "123456" });
      expect(code.statusCode).toBe(400);
      expect(code.json().error).toBe("invalid-two-factor-code");

      // The owner, asked in the console, gives the password: the same session may go on for the window.
      const proof = await post(
        testApp,
        "/v1/users/reauthenticate",
        { method: "password", password: owner.password },
        { session: owner.session },
      );
      expect(proof.statusCode, proof.body).toBe(200);
      expect(Date.parse(proof.json().reauthenticatedUntil)).toBe(
        Date.now() + REAUTHENTICATION_WINDOW_MINUTES * 60_000,
      );
      const options = await post(
        testApp,
        "/v1/users/passkeys/registration-options",
        {},
        { session: owner.session },
      );
      expect(options.statusCode, options.body).toBe(200);
    });
  });

  it("refuses the sensitive calls to a session that never gave a proof (opened before proofs were recorded)", async () => {
    const owner = await signUpAndConfirm(testApp);
    await testApp.database.db
      .update(sessions)
      .set({ reauthenticatedAt: null })
      .where(eq(sessions.userId, owner.userInfo.id));
    const refused = await asThief("/v1/users/passkeys/registration-options", owner.session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("reauthentication-required");
  });

  it("accepts as a proof only the account's own passkey, answering a challenge issued to it", async () => {
    const owner = await signUpAndConfirm(testApp);
    const other = await signUpAndConfirm(testApp);
    const authenticator = new SoftwareAuthenticator(rpId, testApp.config.appOrigin);
    const { options } = (
      await post(testApp, "/v1/users/passkeys/registration-options", {}, { session: other.session })
    ).json();
    const registered = await post(
      testApp,
      "/v1/users/passkeys/register",
      { name: "Other's key", response: authenticator.register(options, { userVerified: true }) },
      { session: other.session },
    );
    expect(registered.statusCode, registered.body).toBe(200);
    await later(REAUTHENTICATION_WINDOW_MINUTES + 1, async () => {
      // The other account's passkey, on a challenge the owner's session asked for: not a proof.
      const ownerOptions = (
        await post(testApp, "/v1/users/reauthentication/options", {}, { session: owner.session })
      ).json();
      expect(ownerOptions).toMatchObject({ password: true, authenticatorCode: false, passkeyOptions: null });
      const otherOptions = (
        await post(testApp, "/v1/users/reauthentication/options", {}, { session: other.session })
      ).json();
      expect(otherOptions.passkeyOptions.allowCredentials).toHaveLength(1);
      const foreign = await post(
        testApp,
        "/v1/users/reauthenticate",
        {
          method: "passkey",
          response: authenticator.authenticate(otherOptions.passkeyOptions, { userVerified: true }),
        },
        { session: owner.session },
      );
      expect(foreign.statusCode).toBe(401);
      expect(foreign.json().error).toBe("passkey-not-recognised");
      expect(
        (await post(testApp, "/v1/users/change-password", {}, { session: owner.session })).statusCode,
      ).toBe(403);
      // Its owner's own passkey on its own challenge is one.
      const fresh = (
        await post(testApp, "/v1/users/reauthentication/options", {}, { session: other.session })
      ).json();
      const own = await post(
        testApp,
        "/v1/users/reauthenticate",
        {
          method: "passkey",
          response: authenticator.authenticate(fresh.passkeyOptions, { userVerified: true }),
        },
        { session: other.session },
      );
      expect(own.statusCode, own.body).toBe(200);
    });
  });

  it("ends the user's other sessions when two-factor is turned on", async () => {
    const owner = await signUpAndConfirm(testApp);
    // Someone who had the password signed in elsewhere before the owner turned two-factor on.
    const thief = new TestBrowser(testApp, { remoteAddress: THIEF_ADDRESS });
    expect(
      (await thief.post("/v1/users/login", { email: owner.email, password: owner.password })).statusCode,
    ).toBe(200);
    expect((await thief.post("/v1/users/me")).statusCode).toBe(200);

    const { secret } = (
      await post(testApp, "/v1/users/two-factor/start", {}, { session: owner.session })
    ).json();
    const enabled = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await generate({ secret }) },
      { session: owner.session },
    );
    expect(enabled.statusCode, enabled.body).toBe(200);

    const after = await thief.post("/v1/users/me");
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("unauthenticated");
    expect((await post(testApp, "/v1/users/me", {}, { session: owner.session })).statusCode).toBe(200);
    const left = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, owner.userInfo.id));
    expect(left).toHaveLength(1);
  });

  it("lets the owner remove, from the mail, a passkey a thief added, which then signs in no more", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Olivia" });
    // The cookie is taken minutes after the owner signed in, inside the window: the thief can add a passkey.
    const stolen = owner.session;
    const thiefKey = new SoftwareAuthenticator(rpId, testApp.config.appOrigin);
    const { options } = (await asThief("/v1/users/passkeys/registration-options", stolen)).json();
    const added = await asThief("/v1/users/passkeys/register", stolen, {
      name: "Backup",
      response: thiefKey.register(options, { userVerified: true }),
    });
    expect(added.statusCode, added.body).toBe(200);

    // The owner is told at once, with the device, the address and a way out.
    const mail = (await testApp.deps.outbox.list()).find(
      (candidate) => candidate.to === owner.email && candidate.subject.includes("passkey was added"),
    );
    expect(mail?.subject).toBe("A passkey was added to your Prism account");
    expect(mail?.text).toContain('The passkey "Backup" was added');
    expect(mail?.text).toContain("Device: Chrome 126.0 on Linux");
    expect(mail?.text).toContain(`Address: ${THIEF_ADDRESS}`);
    const link = mail?.text.match(/Remove this passkey and sign out everywhere: (\S+)/)?.[1] ?? "";
    expect(link.startsWith(`${testApp.config.appOrigin}${REMOVE_PASSKEY_LINK_PATH}?token=`)).toBe(true);

    // The recovery: log out of all sessions, a new password, and the mail's button.
    const ownerAgain = new TestBrowser(testApp);
    expect(
      (await post(testApp, "/v1/users/logout-all-sessions", {}, { session: owner.session })).statusCode,
    ).toBe(200);
    expect(
      (await ownerAgain.post("/v1/users/login", { email: owner.email, password: owner.password })).statusCode,
    ).toBe(200);
    expect(
      (await ownerAgain.post("/v1/users/change-password", { password: "N3w-passw0rd!" })).statusCode,
    ).toBe(200);
    const token = new URL(link).searchParams.get("token") ?? "";
    // Opened signed out, from the mail.
    const removed = await post(testApp, "/v1/users/passkeys/remove-with-link", { token });
    expect(removed.statusCode, removed.body).toBe(200);

    // The thief's passkey opens nothing, and whatever session the thief had is gone.
    const signInOptions = (await post(testApp, "/v1/users/passkeys/authentication-options")).json().options;
    const attempt = await post(testApp, "/v1/users/passkeys/sign-in", {
      response: thiefKey.authenticate(signInOptions, { userVerified: true }),
    });
    expect(attempt.statusCode).toBe(401);
    expect(attempt.json().error).toBe("passkey-not-recognised");
    expect(await passkeysOf(owner.userInfo.id)).toEqual([]);
    expect((await asThief("/v1/users/me", stolen)).statusCode).toBe(401);
    // The link works once; a made-up token is refused the same way.
    expect((await post(testApp, "/v1/users/passkeys/remove-with-link", { token })).statusCode).toBe(404);
    const madeUp = await post(testApp, "/v1/users/passkeys/remove-with-link", { token: "A".repeat(43) });
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json().message).toBe(REMOVE_PASSKEY_PAGE.invalid);
  });
});

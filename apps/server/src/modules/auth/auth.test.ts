import { REMEMBER_ME_SESSION_MS, SESSION_MS } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  latestCodeFor,
  post,
  STRONG_PASSWORD,
  sessionCookieOf,
  signUpAndConfirm,
  TestBrowser,
  uniqueEmail,
} from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { sessions, users, verificationCodes } from "../../db/schema";

describe("accounts", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  describe("sign-up and verification", () => {
    it("creates an inactive user, mails a code, and confirming it signs in with a first organization", async () => {
      const email = uniqueEmail("grace");
      const browser = new TestBrowser(testApp);
      const created = await browser.post("/v1/users/create", {
        firstName: "Grace",
        lastName: "Hopper",
        email: `  ${email.toUpperCase()} `,
        password: STRONG_PASSWORD,
      });
      expect(created.statusCode).toBe(200);
      expect(created.json()).toEqual({});
      const [stored] = await testApp.database.db.select().from(users).where(eq(users.email, email));
      expect(stored?.isActive).toBe(false);
      expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);

      const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === email);
      expect(mail?.subject).toContain("Prism");
      expect(mail?.html).toContain("<!doctype html>");
      const code = await latestCodeFor(testApp, email);
      const [codeRow] = await testApp.database.db.select().from(verificationCodes);
      expect(codeRow?.codeHash).not.toContain(code);

      const confirmed = await browser.post("/v1/users/confirm", { email, verificationCode: code });
      expect(confirmed.statusCode).toBe(200);
      const userInfo = confirmed.json();
      expect(userInfo).toMatchObject({ firstName: "Grace", lastName: "Hopper", email });
      expect(userInfo.organizations).toHaveLength(1);
      const [organization] = userInfo.organizations;
      expect(organization).toMatchObject({
        name: "Grace's Organization",
        balance: 0,
        properties: { isNew: true },
        permissions: { owner: true },
      });
      expect(organization.projects).toEqual([
        { id: expect.any(String), name: "Default Project", organizationId: organization.id },
      ]);

      const session = sessionCookieOf(confirmed);
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe("Lax");
      const me = await post(testApp, "/v1/users/me", {}, { session: session?.value });
      expect(me.statusCode).toBe(200);
      expect(me.json().id).toBe(userInfo.id);
    });

    it("refuses a second sign-up of an active email with user-already-exists", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const again = await post(testApp, "/v1/users/create", {
        firstName: "X",
        lastName: "Y",
        email,
        password: STRONG_PASSWORD,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({
        error: "user-already-exists",
        message: "The email already exists. Please select a different one",
      });
    });

    it("validates the sign-up payload with the spec's messages", async () => {
      const weak = await post(testApp, "/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email: uniqueEmail(),
        password: "short",
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({
        error: "invalid-input",
        message: "password: Password must be at least 8 characters long.",
      });
      const noSpecial = await post(testApp, "/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email: uniqueEmail(),
        password: "Abcdefgh1",
      });
      expect(noSpecial.json().message).toContain(
        "Password must include at least one uppercase letter, one lowercase letter, one number, and one special character.",
      );
      const badEmail = await post(testApp, "/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email: "not-an-email",
        password: STRONG_PASSWORD,
      });
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.json().message).toContain("Invalid email address");
    });

    it("answers the spec's confirm errors", async () => {
      const unknown = await post(testApp, "/v1/users/confirm", {
        email: uniqueEmail(),
        verificationCode: "123456",
      });
      expect(unknown.json().error).toBe("user-not-found");

      const email = uniqueEmail();
      const browser = new TestBrowser(testApp);
      await browser.post("/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email,
        password: STRONG_PASSWORD,
      });
      const code = await latestCodeFor(testApp, email);
      const wrongCode = code === "000000" ? "111111" : "000000";
      const wrong = await browser.post("/v1/users/confirm", { email, verificationCode: wrongCode });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        error: "invalid-verification-code",
        message: "Invalid verification code",
      });

      for (let attempt = 2; attempt <= 5; attempt += 1) {
        await browser.post("/v1/users/confirm", { email, verificationCode: wrongCode });
      }
      const locked = await browser.post("/v1/users/confirm", { email, verificationCode: code });
      expect(locked.json()).toMatchObject({
        error: "verification-code-not-found",
        message: "No active verification code found. Please go back and generate a new one.",
      });

      // A new sign-up attempt issues a fresh code that works.
      await browser.post("/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email,
        password: STRONG_PASSWORD,
      });
      const fresh = await browser.post("/v1/users/confirm", {
        email,
        verificationCode: await latestCodeFor(testApp, email),
      });
      expect(fresh.statusCode).toBe(200);

      const again = await browser.post("/v1/users/confirm", { email, verificationCode: code });
      expect(again.json().error).toBe("user-already-active");
    });

    it("treats an expired code as not found", async () => {
      const email = uniqueEmail();
      await post(testApp, "/v1/users/create", {
        firstName: "A",
        lastName: "B",
        email,
        password: STRONG_PASSWORD,
      });
      const code = await latestCodeFor(testApp, email);
      await testApp.database.db.update(verificationCodes).set({ expiresAt: new Date(Date.now() - 1000) });
      const expired = await post(testApp, "/v1/users/confirm", { email, verificationCode: code });
      expect(expired.json().error).toBe("verification-code-not-found");
    });
  });

  describe("sign-in", () => {
    it("answers 401 Invalid password, 400 user-not-found, and 403 user-not-active with a fresh code", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const wrong = await post(testApp, "/v1/users/login", { email, password: "Wrong-passw0rd!" });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: "invalid-credentials", message: "Invalid password" });

      const unknown = await post(testApp, "/v1/users/login", {
        email: uniqueEmail(),
        password: STRONG_PASSWORD,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({
        error: "user-not-found",
        message: "We cannot find the provided email on our database.",
      });

      const pending = uniqueEmail();
      await post(testApp, "/v1/users/create", {
        firstName: "P",
        lastName: "Q",
        email: pending,
        password: STRONG_PASSWORD,
      });
      const mailsBefore = (await testApp.deps.outbox.list()).filter((mail) => mail.to === pending).length;
      const inactive = await post(testApp, "/v1/users/login", { email: pending, password: STRONG_PASSWORD });
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json().error).toBe("user-not-active");
      expect(sessionCookieOf(inactive)).toBeUndefined();
      const mailsAfter = (await testApp.deps.outbox.list()).filter((mail) => mail.to === pending).length;
      expect(mailsAfter).toBe(mailsBefore + 1);
    });

    it("keeps a Remember Me session for a year and a plain one for a day", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const remembered = await post(testApp, "/v1/users/login", {
        email,
        password: STRONG_PASSWORD,
        rememberMe: true,
      });
      expect(remembered.statusCode).toBe(200);
      const longCookie = sessionCookieOf(remembered);
      expect(longCookie?.expires).toBeInstanceOf(Date);
      const yearAway = Date.now() + REMEMBER_ME_SESSION_MS;
      expect(Math.abs(new Date(longCookie?.expires ?? 0).getTime() - yearAway)).toBeLessThan(60_000);

      const plain = await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD });
      const shortCookie = sessionCookieOf(plain);
      // A day, restarts of the browser included: the cookie carries the expiry, not the browser session.
      const dayAway = Date.now() + SESSION_MS;
      expect(Math.abs(new Date(shortCookie?.expires ?? 0).getTime() - dayAway)).toBeLessThan(60_000);
      const rows = await testApp.database.db.select().from(sessions);
      const plainRow = rows.find((row) => !row.rememberMe && row.createdAt.getTime() > Date.now() - 5_000);
      expect(Math.abs((plainRow?.expiresAt.getTime() ?? 0) - (Date.now() + SESSION_MS))).toBeLessThan(60_000);
      // Only the hash of the token is stored.
      expect(rows.some((row) => row.tokenHash === shortCookie?.value)).toBe(false);
    });

    it("refuses an expired session", async () => {
      const { session } = await signUpAndConfirm(testApp);
      expect((await post(testApp, "/v1/users/me", {}, { session })).statusCode).toBe(200);
      await testApp.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      const me = await post(testApp, "/v1/users/me", {}, { session });
      expect(me.statusCode).toBe(401);
    });
  });

  describe("sessions", () => {
    it("logout ends this session only; logout-all ends every session", async () => {
      const { email, session: first } = await signUpAndConfirm(testApp);
      const second = sessionCookieOf(
        await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD }),
      )?.value;
      const third = sessionCookieOf(
        await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD }),
      )?.value;

      const loggedOut = await post(testApp, "/v1/users/logout", {}, { session: first });
      expect(loggedOut.statusCode).toBe(200);
      expect(sessionCookieOf(loggedOut)?.value).toBe("");
      expect((await post(testApp, "/v1/users/me", {}, { session: first })).statusCode).toBe(401);
      expect((await post(testApp, "/v1/users/me", {}, { session: second })).statusCode).toBe(200);

      expect((await post(testApp, "/v1/users/logout-all-sessions", {}, { session: second })).statusCode).toBe(
        200,
      );
      expect((await post(testApp, "/v1/users/me", {}, { session: second })).statusCode).toBe(401);
      expect((await post(testApp, "/v1/users/me", {}, { session: third })).statusCode).toBe(401);
    });

    it("a password change keeps this session and ends the others", async () => {
      const { email, session } = await signUpAndConfirm(testApp);
      const other = sessionCookieOf(
        await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD }),
      )?.value;
      const changed = await post(
        testApp,
        "/v1/users/change-password",
        { password: "N3w-password!" },
        { session },
      );
      expect(changed.statusCode).toBe(200);
      expect((await post(testApp, "/v1/users/me", {}, { session })).statusCode).toBe(200);
      expect((await post(testApp, "/v1/users/me", {}, { session: other })).statusCode).toBe(401);
      expect((await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD })).statusCode).toBe(
        401,
      );
      expect((await post(testApp, "/v1/users/login", { email, password: "N3w-password!" })).statusCode).toBe(
        200,
      );
    });

    it("refuses a weak new password", async () => {
      const { session } = await signUpAndConfirm(testApp);
      const weak = await post(testApp, "/v1/users/change-password", { password: "weakpass" }, { session });
      expect(weak.statusCode).toBe(400);
    });
  });

  describe("password reset", () => {
    it("mails a code, sets the new password with it, and ends every session", async () => {
      const { email, session } = await signUpAndConfirm(testApp);
      const unknown = await post(testApp, "/v1/users/forgot-password", { email: uniqueEmail() });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ error: "user-not-found", message: "Email address not found." });

      expect((await post(testApp, "/v1/users/forgot-password", { email })).statusCode).toBe(200);
      const code = await latestCodeFor(testApp, email);
      const wrong = await post(testApp, "/v1/users/reset-password", {
        email,
        password: "Another-pass1!",
        resetCode: code === "999999" ? "000000" : "999999",
      });
      expect(wrong.json()).toMatchObject({
        error: "invalid-reset-code",
        message: "Invalid verification code",
      });

      const reset = await post(testApp, "/v1/users/reset-password", {
        email,
        password: "Another-pass1!",
        resetCode: code,
      });
      expect(reset.statusCode).toBe(200);
      expect((await post(testApp, "/v1/users/me", {}, { session })).statusCode).toBe(401);
      expect((await post(testApp, "/v1/users/login", { email, password: "Another-pass1!" })).statusCode).toBe(
        200,
      );
      // The code works once.
      const replay = await post(testApp, "/v1/users/reset-password", {
        email,
        password: "Third-pass1!",
        resetCode: code,
      });
      expect(replay.json().error).toBe("invalid-reset-code");
    });
  });

  describe("profile", () => {
    it("updates first and last name, and requires both", async () => {
      const { session } = await signUpAndConfirm(testApp);
      const updated = await post(
        testApp,
        "/v1/users/settings/update-profile",
        { firstName: " Ada ", lastName: "Byron" },
        { session },
      );
      expect(updated.statusCode).toBe(200);
      const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
      expect(me).toMatchObject({ firstName: "Ada", lastName: "Byron" });
      const empty = await post(
        testApp,
        "/v1/users/settings/update-profile",
        { firstName: "", lastName: "X" },
        { session },
      );
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toContain("Please fill all the required fields");
    });

    it("needs a session", async () => {
      const response = await post(testApp, "/v1/users/settings/update-profile", {
        firstName: "A",
        lastName: "B",
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe("rate limits", () => {
    it("answers 429 after too many sign-in attempts for one email", async () => {
      const { email } = await signUpAndConfirm(testApp);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        statuses.push(
          (await post(testApp, "/v1/users/login", { email, password: "Wrong-passw0rd!" })).statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
      const limited = await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe("rate-limited");
    });

    it("answers 429 after too many attempts from one IP across emails", async () => {
      const remoteAddress = "203.0.113.7";
      let last = 0;
      for (let attempt = 0; attempt < 31; attempt += 1) {
        last = (await post(testApp, "/v1/users/forgot-password", { email: uniqueEmail() }, { remoteAddress }))
          .statusCode;
      }
      expect(last).toBe(429);
      const otherIp = await post(
        testApp,
        "/v1/users/forgot-password",
        { email: uniqueEmail() },
        { remoteAddress: "203.0.113.8" },
      );
      expect(otherIp.statusCode).toBe(400);
    });

    it("scales the per-IP throttle by AUTH_LIMITS_PER_IP_SCALE and keeps the per-email one", async () => {
      const scaled = await createTestApp({ AUTH_LIMITS_PER_IP_SCALE: "2" });
      try {
        const remoteAddress = "203.0.113.9";
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 61; attempt += 1) {
          statuses.push(
            (await post(scaled, "/v1/users/forgot-password", { email: uniqueEmail() }, { remoteAddress }))
              .statusCode,
          );
        }
        expect(statuses.slice(0, 60).every((status) => status === 400)).toBe(true);
        expect(statuses[60]).toBe(429);
        const email = uniqueEmail();
        const perEmail: number[] = [];
        for (let attempt = 0; attempt < 6; attempt += 1) {
          perEmail.push(
            (await post(scaled, "/v1/users/forgot-password", { email }, { remoteAddress: "203.0.113.10" }))
              .statusCode,
          );
        }
        expect(perEmail[5]).toBe(429);
      } finally {
        await scaled.close();
      }
    });
  });
});

import { SESSION_NOT_FOUND } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, STRONG_PASSWORD, sessionCookieOf, signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { sessions } from "../../db/schema";

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

describe("signed-in devices", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** Signs in with the password from a browser with this user agent and address; returns its session. */
  async function signInFrom(email: string, userAgent: string, remoteAddress: string): Promise<string> {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/users/login",
      payload: { email, password: STRONG_PASSWORD },
      headers: { ...SAME_ORIGIN, "user-agent": userAgent },
      remoteAddress,
    });
    expect(response.statusCode).toBe(200);
    const session = sessionCookieOf(response)?.value;
    if (!session) throw new Error("no session");
    return session;
  }

  it("lists each session with its browser, OS, IP, creation and last use, marking the current one", async () => {
    const user = await signUpAndConfirm(testApp);
    const laptop = await signInFrom(user.email, FIREFOX_ON_WINDOWS, "203.0.113.7");
    await signInFrom(user.email, SAFARI_ON_IPHONE, "198.51.100.20");

    const response = await post(testApp, "/v1/users/sessions/list", {}, { session: laptop });
    expect(response.statusCode).toBe(200);
    const listed = response.json().sessions as Record<string, unknown>[];
    expect(listed).toHaveLength(3);
    const current = listed.filter((device) => device.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      browser: "Firefox 128.0",
      os: "Windows 10",
      ipAddress: "203.0.113.7",
    });
    expect(listed).toContainEqual(
      expect.objectContaining({
        browser: "Safari 17.5",
        os: "iOS 17.5",
        ipAddress: "198.51.100.20",
        current: false,
      }),
    );
    for (const device of listed) {
      expect(Date.parse(String(device.createdAt))).not.toBeNaN();
      expect(Date.parse(String(device.lastSeenAt))).not.toBeNaN();
    }
  });

  it("signs out one other device: its cookie no longer works, the others still do", async () => {
    const user = await signUpAndConfirm(testApp);
    const laptop = await signInFrom(user.email, FIREFOX_ON_WINDOWS, "203.0.113.7");
    const phone = await signInFrom(user.email, SAFARI_ON_IPHONE, "198.51.100.20");
    const listed = (await post(testApp, "/v1/users/sessions/list", {}, { session: laptop })).json().sessions;
    const phoneSession = listed.find((device: { os: string }) => device.os === "iOS 17.5");

    const revoked = await post(
      testApp,
      "/v1/users/sessions/revoke",
      { sessionId: phoneSession.id },
      { session: laptop },
    );
    expect(revoked.statusCode).toBe(200);
    expect((await post(testApp, "/v1/users/me", {}, { session: phone })).statusCode).toBe(401);
    expect((await post(testApp, "/v1/users/me", {}, { session: laptop })).statusCode).toBe(200);
    expect((await post(testApp, "/v1/users/me", {}, { session: user.session })).statusCode).toBe(200);
    const after = (await post(testApp, "/v1/users/sessions/list", {}, { session: laptop })).json().sessions;
    expect(after.map((device: { id: string }) => device.id)).not.toContain(phoneSession.id);

    const again = await post(
      testApp,
      "/v1/users/sessions/revoke",
      { sessionId: phoneSession.id },
      { session: laptop },
    );
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(SESSION_NOT_FOUND);
  });

  it("refuses to end another user's session, and answers 404 to ids that are not ids", async () => {
    const owner = await signUpAndConfirm(testApp);
    const stranger = await signUpAndConfirm(testApp);
    const [ownerSession] = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, owner.userInfo.id));
    const refused = await post(
      testApp,
      "/v1/users/sessions/revoke",
      { sessionId: ownerSession?.id },
      { session: stranger.session },
    );
    expect(refused.statusCode).toBe(404);
    expect((await post(testApp, "/v1/users/me", {}, { session: owner.session })).statusCode).toBe(200);
    const junk = await post(
      testApp,
      "/v1/users/sessions/revoke",
      { sessionId: "nope" },
      { session: stranger.session },
    );
    expect(junk.statusCode).toBe(404);
  });

  it("signing out the current device ends this session and clears its cookie", async () => {
    const user = await signUpAndConfirm(testApp);
    const [own] = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userInfo.id));
    const response = await post(
      testApp,
      "/v1/users/sessions/revoke",
      { sessionId: own?.id },
      { session: user.session },
    );
    expect(response.statusCode).toBe(200);
    expect(sessionCookieOf(response)?.value).toBe("");
    expect((await post(testApp, "/v1/users/me", {}, { session: user.session })).statusCode).toBe(401);
  });

  it("moves 'last seen' when a session is used after a while, not on every call", async () => {
    const user = await signUpAndConfirm(testApp);
    const longAgo = new Date(Date.now() - 60 * 60_000);
    await testApp.database.db
      .update(sessions)
      .set({ lastSeenAt: longAgo })
      .where(eq(sessions.userId, user.userInfo.id));
    await post(testApp, "/v1/users/me", {}, { session: user.session });
    const [touched] = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userInfo.id));
    expect(touched?.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const recent = new Date(Date.now() - 60_000);
    await testApp.database.db
      .update(sessions)
      .set({ lastSeenAt: recent })
      .where(eq(sessions.userId, user.userInfo.id));
    await post(testApp, "/v1/users/me", {}, { session: user.session });
    const [kept] = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userInfo.id));
    expect(kept?.lastSeenAt.getTime()).toBe(recent.getTime());
  });
});

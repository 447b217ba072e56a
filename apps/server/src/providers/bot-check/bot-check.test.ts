import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, STRONG_PASSWORD, signUpAndConfirm } from "../../../test/accounts";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";

/** Tokens the local siteverify server understands: "human-v3" scores 0.9, "bot-v3" 0.1, "human-v2" passes. */
describe("reCAPTCHA bot check", () => {
  let verifier: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    verifier = await startLocalServer((request, response) => {
      const form = new URLSearchParams(request.body);
      const secret = form.get("secret");
      const token = form.get("response");
      if (secret === "v3-secret" && token === "human-v3")
        return sendJson(response, 200, { success: true, score: 0.9 });
      if (secret === "v3-secret" && token === "bot-v3")
        return sendJson(response, 200, { success: true, score: 0.1 });
      if (secret === "v2-secret" && token === "human-v2") return sendJson(response, 200, { success: true });
      return sendJson(response, 200, { success: false, "error-codes": ["invalid-input-response"] });
    });
    testApp = await createTestApp({
      RECAPTCHA_V3_SITE_KEY: "v3-site",
      RECAPTCHA_V3_SECRET_KEY: "v3-secret",
      RECAPTCHA_V2_SITE_KEY: "v2-site",
      RECAPTCHA_V2_SECRET_KEY: "v2-secret",
      RECAPTCHA_VERIFY_URL: `${verifier.url}/recaptcha/api/siteverify`,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await verifier?.close();
  });

  it("lets a good v3 score through, refuses a bad one with 491, and accepts the v2 escalation", async () => {
    // The account itself is made with a passing token.
    const email = `captcha-${Date.now()}@example.com`;
    const created = await post(testApp, "/v1/users/create", {
      firstName: "C",
      lastName: "D",
      email,
      password: STRONG_PASSWORD,
      recaptchaToken: "human-v3",
      recaptchaType: "v3",
    });
    expect(created.statusCode).toBe(200);
    const lastCheck = new URLSearchParams(verifier.requests.at(-1)?.body);
    expect(lastCheck.get("secret")).toBe("v3-secret");
    expect(lastCheck.get("response")).toBe("human-v3");

    const bot = await post(testApp, "/v1/users/login", {
      email,
      password: STRONG_PASSWORD,
      recaptchaToken: "bot-v3",
      recaptchaType: "v3",
    });
    expect(bot.statusCode).toBe(491);
    expect(bot.json()).toMatchObject({
      error: "recaptcha-failed",
      message: "Recaptcha check failed. Please try again.",
    });

    const escalated = await post(testApp, "/v1/users/login", {
      email,
      password: STRONG_PASSWORD,
      recaptchaToken: "human-v2",
      recaptchaType: "v2",
    });
    // The bot check passed; the login itself fails only because the account is not verified yet.
    expect(escalated.statusCode).toBe(403);
  });

  it("refuses a call with no token at all", async () => {
    const response = await post(testApp, "/v1/users/forgot-password", { email: "nobody@example.com" });
    expect(response.statusCode).toBe(491);
  });

  it("publishes only the site keys", async () => {
    const config = (await post(testApp, "/v1/public-config")).json();
    expect(config.recaptcha).toEqual({
      v3SiteKey: "v3-site",
      v2SiteKey: "v2-site",
      scriptUrl: "https://www.google.com/recaptcha/api.js",
    });
    expect(JSON.stringify(config)).not.toContain("secret");
    const page = await testApp.app.inject({ method: "GET", url: "/login" });
    expect(String(page.headers["content-security-policy"])).toContain(
      "script-src 'self' https://www.google.com",
    );
  });
});

describe("without reCAPTCHA configured", () => {
  it("signs in with no token", async () => {
    const testApp = await createTestApp();
    try {
      const { email } = await signUpAndConfirm(testApp);
      const response = await post(testApp, "/v1/users/login", { email, password: STRONG_PASSWORD });
      expect(response.statusCode).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});

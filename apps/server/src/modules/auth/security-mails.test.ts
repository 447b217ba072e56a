import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, TestBrowser } from "../../../test/accounts";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import type { StoredMail } from "../../providers/mail/mailer";
import { SESSION_COOKIE } from "./session-cookie";

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const ADDRESS = "198.51.100.23";

/**
 * Issue 27: a change that could hand the account to someone else is mailed to its owner, naming the
 * device and the address it came from and what to do if it was not them.
 */
describe("security mails", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const call = (url: string, session: string, payload: object = {}) =>
    testApp.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...SAME_ORIGIN, "user-agent": FIREFOX_ON_WINDOWS },
      cookies: { [SESSION_COOKIE]: session },
      remoteAddress: ADDRESS,
    });

  async function mailsTo(email: string, subject: string): Promise<StoredMail[]> {
    return (await testApp.deps.outbox.list()).filter((mail) => mail.to === email && mail.subject === subject);
  }

  function expectOrigin(mail: StoredMail | undefined) {
    expect(mail?.text).toContain("Device: Firefox 128.0 on Windows 10");
    expect(mail?.text).toContain(`Address: ${ADDRESS}`);
    expect(mail?.text).toMatch(/Time: [A-Z][a-z]{2} \d{2}, \d{4}, \d{2}:\d{2} [AP]M UTC/);
    expect(mail?.html).toContain("Firefox 128.0 on Windows 10");
    expect(mail?.text).toContain("If it was not you:");
  }

  it("mails a password change, with the way to take the account back", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Pat" });
    const changed = await call("/v1/users/change-password", owner.session, { password: "An0ther-secret!" });
    expect(changed.statusCode, changed.body).toBe(200);
    const [mail] = await mailsTo(owner.email, "Your Prism password was changed");
    expect(mail?.text).toContain("Hello Pat,");
    expectOrigin(mail);
    expect(mail?.text).toContain(`Recover your password: ${testApp.config.appOrigin}/login`);
  });

  it("mails two-factor turned off, and a recovery code used, with how many are left", async () => {
    const owner = await signUpAndConfirm(testApp);
    const { secret } = (await call("/v1/users/two-factor/start", owner.session)).json();
    const { recoveryCodes } = (
      await call("/v1/users/two-factor/enable", owner.session, { code: await generate({ secret }) })
    ).json();

    // Signing in with a recovery code instead of the app's code.
    const browser = new TestBrowser(testApp);
    expect(
      (await browser.post("/v1/users/login", { email: owner.email, password: owner.password })).statusCode,
    ).toBe(401);
    expect((await browser.post("/v1/users/two-factor/verify", { code: recoveryCodes[0] })).statusCode).toBe(
      200,
    );
    const [used] = await mailsTo(owner.email, "A recovery code was used on your Prism account");
    expect(used?.text).toContain("9 codes are left.");
    expect(used?.text).toContain("Then generate new recovery codes.");

    // Turning it off, with another recovery code: one mail says it is off.
    const disabled = await call("/v1/users/two-factor/disable", owner.session, { code: recoveryCodes[1] });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const [off] = await mailsTo(
      owner.email,
      "Two-factor authentication was turned off on your Prism account",
    );
    expectOrigin(off);
    expect(off?.text).toContain("Then turn two-factor authentication on again.");
    expect(await mailsTo(owner.email, "A recovery code was used on your Prism account")).toHaveLength(1);
  });

  it("mails a recovery code given to confirm a sensitive action", async () => {
    const owner = await signUpAndConfirm(testApp);
    const { secret } = (await call("/v1/users/two-factor/start", owner.session)).json();
    const { recoveryCodes } = (
      await call("/v1/users/two-factor/enable", owner.session, { code: await generate({ secret }) })
    ).json();
    const proof = await call("/v1/users/reauthenticate", owner.session, {
      method: "code",
      code: recoveryCodes[0],
    });
    expect(proof.statusCode, proof.body).toBe(200);
    const [used] = await mailsTo(owner.email, "A recovery code was used on your Prism account");
    expectOrigin(used);
    expect(used?.text).toContain("9 codes are left.");
  });

  it("mails nothing for a refused change", async () => {
    const owner = await signUpAndConfirm(testApp);
    const refused = await call("/v1/users/two-factor/disable", owner.session, { code: "123456" });
    expect(refused.statusCode).toBe(409);
    const weak = await post(
      testApp,
      "/v1/users/change-password",
      { password: "short" },
      { session: owner.session },
    );
    expect(weak.statusCode).toBe(400);
    const mails = (await testApp.deps.outbox.list()).filter((mail) => mail.to === owner.email);
    // The sign-up's verification code only.
    expect(mails).toHaveLength(1);
  });
});

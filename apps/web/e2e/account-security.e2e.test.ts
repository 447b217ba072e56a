import { TOTP_PERIOD_SECONDS } from "@prism/contract";
import { generate } from "otplib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { createVerifiedAccount, isSessionAlive, signInElsewhere, uniqueEmail } from "./mailbox";

/** The code the user's authenticator app shows for `secret`, `steps` periods from now. */
function appCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_SECONDS });
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByRole("heading", { name: "Welcome!" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

async function logOut(page: Page, fullName: string) {
  await page.getByRole("button", { name: `Account menu for ${fullName}` }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await page.getByRole("heading", { name: "Welcome!" }).waitFor();
}

describe("account security", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("signs out another device, enrols two-factor sign-in from the shown secret, and signs in with a code and a recovery code", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl, {
      firstName: "Radia",
      lastName: "Perlman",
      email: uniqueEmail("two-factor"),
    });
    const fullName = `${account.firstName} ${account.lastName}`;
    await skipWelcomePopup(page);
    await signInThroughForm(page, account.email, account.password);
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();

    // Signed-in devices: this browser and two through the API (the sign-up's confirmation and a sign-in),
    // which are signed out from here one by one.
    const otherDevice = await signInElsewhere(baseUrl, account.email, account.password);
    await page.goto("/settings/profile");
    const devices = page.getByRole("region", { name: "Signed-in devices" });
    await expect.poll(() => devices.getByTestId("device-row").count()).toBe(3);
    const current = devices.locator("[data-testid=device-row][data-current=true]");
    await expect.poll(() => current.textContent()).toMatch(/Chrome .* on Linux.*This device/);
    await devices.scrollIntoViewIfNeeded();
    await session.screenshot("account-security-01-devices");
    for (const left of [2, 1]) {
      await devices.getByRole("button", { name: "Sign out" }).first().click();
      await page.getByRole("button", { name: "Yes" }).click();
      await expect.poll(() => devices.getByTestId("device-row").count()).toBe(left);
    }
    await page.getByText("Device signed out!").first().waitFor();
    expect(await isSessionAlive(baseUrl, otherDevice)).toBe(false);

    // Enrolment: QR code and secret, a first code from the "app", then the recovery codes once.
    const twoFactor = page.getByRole("region", { name: "Two-factor authentication" });
    await twoFactor.getByRole("button", { name: "Enable" }).click();
    await twoFactor.getByAltText("QR code for your authenticator app").waitFor();
    const secret = (await twoFactor.getByTestId("two-factor-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await twoFactor.scrollIntoViewIfNeeded();
    await session.screenshot("account-security-02-enrol");
    await twoFactor.getByLabel("Authentication code").fill(await appCode(secret));
    await twoFactor.getByRole("button", { name: "Confirm" }).click();
    const codes = twoFactor.getByTestId("recovery-codes");
    await codes.waitFor();
    const recoveryCodes = (await codes.locator("code").allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    await session.screenshot("account-security-03-recovery-codes");
    await twoFactor.getByRole("button", { name: "I have saved my codes" }).click();
    await twoFactor.getByText("Two-factor authentication is on.").waitFor();
    await session.screenshot("account-security-04-enabled");

    // Sign-in now asks for the code after the password; the next period's code (the app a little
    // ahead) works, since the enrolment spent the current one.
    await logOut(page, fullName);
    await signInThroughForm(page, account.email, account.password);
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    await session.screenshot("account-security-05-sign-in-code");
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").getByText("Invalid authentication code").waitFor();
    await page.getByLabel("Authentication code").fill(await appCode(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/home");

    // A recovery code signs in once.
    await logOut(page, fullName);
    await signInThroughForm(page, account.email, account.password);
    await page.getByLabel("Authentication code").fill(recoveryCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();
    await page.goto("/settings/profile");
    await page.getByText("9 of 10 recovery codes left.").waitFor();
  });
});

import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import {
  countMailTo,
  createUnverifiedAccount,
  createVerifiedAccount,
  isSessionAlive,
  signInElsewhere,
  uniqueEmail,
  waitForCode,
} from "./mailbox";

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByRole("heading", { name: "Welcome!" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

/**
 * New accounts meet the one-time welcome dialog on /home; journeys close it to go on. `onShown` runs
 * while it is open (for a screenshot).
 */
async function dismissWelcome(page: Page, onShown?: () => Promise<void>) {
  await page.getByRole("button", { name: /^Account menu for / }).waitFor();
  const welcome = page.getByRole("heading", { name: "Welcome to Prism!" });
  await welcome.waitFor({ timeout: 5_000 }).catch(() => undefined);
  if (await welcome.isVisible()) {
    await onShown?.();
    await page.keyboard.press("Escape");
    await welcome.waitFor({ state: "hidden" });
  }
}

describe("accounts", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  beforeEach(async () => {
    // One browser for the file, but every journey starts signed out with a fresh local state.
    await session.context.clearCookies();
    await session.page.goto("/terms");
    await session.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  });

  afterAll(async () => {
    await session?.close();
  });

  it("signs up, verifies the mailed code, lands on /home in the new organization, and logs out", async () => {
    const { page, baseUrl } = session;
    const email = uniqueEmail("signup");
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("First Name").fill("Ada");
    await page.getByLabel("Last Name").fill("Lovelace");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!pass");
    await page.getByLabel("Confirm Password", { exact: true }).fill("Str0ng!pass");
    await page.getByText("Password is strong!").waitFor();
    await page.getByRole("checkbox", { name: /terms and conditions/ }).check();
    await session.screenshot("accounts-01-sign-up-filled");

    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("Verification Code").waitFor();
    await session.screenshot("accounts-02-verification-code");

    const code = await waitForCode(baseUrl, email);
    await page.getByLabel("Verification Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/home");
    await dismissWelcome(page, () => session.screenshot("accounts-03-home-welcome"));

    await page
      .getByRole("button", { name: "Organization: Ada's Organization. Change organization" })
      .waitFor();
    await page.getByRole("button", { name: "Project: Default Project. Change project" }).waitFor();
    await session.screenshot("accounts-04-home-new-organization");

    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByText("Are you sure you want to logout?").waitFor();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.waitForURL("**/login");
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await session.screenshot("accounts-05-logged-out");

    // The session really ended: a protected page leads back to /login.
    await page.goto("/home");
    await page.waitForURL("**/login");
  });

  it("refuses a wrong password with 'Invalid password'", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    await signInThroughForm(page, account.email, "Wr0ng!password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Invalid password");
    expect(new URL(page.url()).pathname).toBe("/login");
    await session.screenshot("accounts-06-invalid-password");
  });

  it("recovers a forgotten password with the mailed code and signs in with the new one", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    await page.goto("/login");
    await page.getByRole("button", { name: "Recover Password" }).click();
    await page.getByLabel("Email").fill(account.email);
    await session.screenshot("accounts-07-forgot-password");

    const mailsBefore = await countMailTo(baseUrl, account.email);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("button", { name: "Change Password" }).waitFor();
    const code = await waitForCode(baseUrl, account.email, mailsBefore);
    await page.getByLabel("Verification Code").fill(code);
    await page.getByLabel("New Password", { exact: true }).fill("N3w!password");
    await page.getByLabel("Confirm Password", { exact: true }).fill("N3w!password");
    await page.getByText("Password is strong!").waitFor();
    await session.screenshot("accounts-08-change-password");

    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL("**/home");
    await dismissWelcome(page);
    await page
      .getByRole("button", { name: `Account menu for ${account.firstName} ${account.lastName}` })
      .waitFor();
    await session.screenshot("accounts-09-signed-in-after-reset");

    // The old password no longer works.
    await session.context.clearCookies();
    await signInThroughForm(page, account.email, account.password);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Invalid password");
  });

  it("updates the profile name and shows 'Profile Updated!'", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl, { firstName: "Alan", lastName: "Turing" });
    await signInThroughForm(page, account.email, account.password);
    await page.waitForURL("**/home");
    await dismissWelcome(page);

    await page.getByRole("button", { name: "Account menu for Alan Turing" }).click();
    await page.getByRole("menuitem", { name: "Your Profile" }).click();
    await page.waitForURL("**/settings/profile");
    const profile = page.getByRole("form", { name: "Your Profile" });
    expect(await profile.getByLabel("Email").inputValue()).toBe(account.email);
    await session.screenshot("accounts-10-profile");

    await profile.getByLabel("First Name").fill("");
    await profile.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please fill all the required fields").waitFor();

    await profile.getByLabel("First Name").fill("Alonzo");
    await profile.getByLabel("Last Name").fill("Church");
    await profile.getByRole("button", { name: "Save" }).click();
    await page.getByText("Profile Updated!").waitFor();
    await page.getByRole("button", { name: "Account menu for Alonzo Church" }).waitFor();
    await session.screenshot("accounts-11-profile-updated");

    // The new name is the server's too.
    await page.reload();
    await page.getByRole("button", { name: "Account menu for Alonzo Church" }).waitFor();
  });
  it("refuses to sign up twice with one email", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("First Name").fill("Again");
    await page.getByLabel("Last Name").fill("Twice");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!pass");
    await page.getByLabel("Confirm Password", { exact: true }).fill("Str0ng!pass");
    await page.getByRole("checkbox", { name: /terms and conditions/ }).check();
    await page.getByRole("button", { name: "Sign Up" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("The email already exists. Please select a different one");
    await session.screenshot("accounts-12-email-already-exists");
  });

  it("sends an unverified account to the verification code, then signs it in", async () => {
    const { page, baseUrl } = session;
    const account = await createUnverifiedAccount(baseUrl);
    const mailsBefore = await countMailTo(baseUrl, account.email);
    await signInThroughForm(page, account.email, account.password);
    await page.getByLabel("Verification Code").waitFor();
    await session.screenshot("accounts-13-unverified-sign-in");
    // The server mails a fresh code on that sign-in attempt.
    const code = await waitForCode(baseUrl, account.email, mailsBefore);
    await page.getByLabel("Verification Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/home");
    await dismissWelcome(page);
    await page
      .getByRole("button", { name: "Organization: Katherine's Organization. Change organization" })
      .waitFor();
  });

  it("keeps an invitation link in the invitationId cookie and leads to the members page after sign-in", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    await page.goto("/login?invitation=e2e-invitation-id");
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    const cookies = await session.context.cookies();
    expect(cookies.find((cookie) => cookie.name === "invitationId")?.value).toBe("e2e-invitation-id");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/organization/members");
    await session.screenshot("accounts-14-invitation-after-sign-in");
  });

  it("logs out from all sessions, ending the other devices' sessions too", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    const otherDevice = await signInElsewhere(baseUrl, account.email, account.password);
    expect(await isSessionAlive(baseUrl, otherDevice)).toBe(true);

    await signInThroughForm(page, account.email, account.password);
    await page.waitForURL("**/home");
    await dismissWelcome(page);
    // A signed-in user who opens /login goes home.
    await page.goto("/login");
    await page.waitForURL("**/home");

    await page.goto("/settings/profile");
    await page.getByRole("button", { name: "Logout from All Sessions" }).click();
    await page.getByText("Are you sure you want to logout from all sessions?").waitFor();
    await session.screenshot("accounts-15-logout-all-confirm");
    await page.getByRole("button", { name: "Yes" }).click();
    await page.waitForURL("**/login");
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    expect(await isSessionAlive(baseUrl, otherDevice)).toBe(false);
    await session.screenshot("accounts-16-logged-out-everywhere");
  });
  it("escalates a failed invisible bot check to the visible Security Challenge and re-runs the sign-in", async () => {
    const { page, baseUrl } = session;
    const account = await createVerifiedAccount(baseUrl);
    // This server runs without a bot check, so the journey stands one in: the public config names a
    // same-origin stand-in of the reCAPTCHA script, and the first (v3) sign-in is refused with 491.
    const config = (await (await fetch(`${baseUrl}/v1/public-config`, { method: "POST" })).json()) as object;
    await page.route("**/v1/public-config", (route) =>
      route.fulfill({
        json: {
          ...config,
          recaptcha: { v3SiteKey: "v3-key", v2SiteKey: "v2-key", scriptUrl: `${baseUrl}/e2e-recaptcha.js` },
        },
      }),
    );
    await page.route("**/e2e-recaptcha.js*", (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: `window.grecaptcha = {
          ready: (callback) => callback(),
          execute: async () => "v3-token",
          render: (element, options) => {
            const button = document.createElement("button");
            button.type = "button";
            button.textContent = "I am not a robot";
            button.addEventListener("click", () => options.callback("v2-token"));
            element.append(button);
            return 1;
          },
        };`,
      }),
    );
    const loginTypes: string[] = [];
    let refuseV2 = true;
    await page.route("**/v1/users/login", async (route) => {
      const body = route.request().postDataJSON() as { recaptchaType?: string };
      loginTypes.push(body.recaptchaType ?? "none");
      if (body.recaptchaType === "v3" || (body.recaptchaType === "v2" && refuseV2)) {
        await route.fulfill({
          status: 491,
          json: { error: "recaptcha-failed", message: "Bot check failed." },
        });
        return;
      }
      await route.continue();
    });

    await signInThroughForm(page, account.email, account.password);
    await page.getByRole("dialog", { name: "Security Challenge" }).waitFor();
    await page.getByText("Please complete the security challenge below").waitFor();
    await session.screenshot("accounts-17-security-challenge");
    await page.getByRole("button", { name: "I am not a robot" }).click();
    await page.getByText("Recaptcha check failed. Please try again.").waitFor();
    await session.screenshot("accounts-18-recaptcha-failed");

    // Clicking outside closes the challenge and abandons the attempt without a message.
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("dialog", { name: "Security Challenge" }).waitFor();
    await page.mouse.click(20, 20);
    await page.getByRole("dialog", { name: "Security Challenge" }).waitFor({ state: "hidden" });
    expect(await page.getByRole("alert").count()).toBe(0);

    refuseV2 = false;
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("button", { name: "I am not a robot" }).click();
    await page.waitForURL("**/home");
    expect(loginTypes).toEqual(["v3", "v2", "v3", "v3", "v2"]);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
  it("comes back from GitHub through the callback with a checked state and reports GitHub's answer", async () => {
    const { page, baseUrl } = session;
    // GitHub is not configured on this server: the public config names a stand-in authorize page that
    // sends the browser straight back with a code, as GitHub does after consent.
    const config = (await (await fetch(`${baseUrl}/v1/public-config`, { method: "POST" })).json()) as object;
    await page.route("**/v1/public-config", (route) =>
      route.fulfill({
        json: {
          ...config,
          github: { clientId: "e2e-client", authorizeUrl: `${baseUrl}/e2e-github/authorize` },
        },
      }),
    );
    let authorizeQuery = new URLSearchParams();
    await page.route("**/e2e-github/authorize*", (route) => {
      authorizeQuery = new URL(route.request().url()).searchParams;
      const state = authorizeQuery.get("state") ?? "";
      return route.fulfill({
        status: 302,
        headers: {
          location: `/login-github-callback?code=e2e-github-code&state=${encodeURIComponent(state)}`,
        },
      });
    });
    let githubRequest: unknown;
    await page.route("**/v1/users/github-login-request", (route) => {
      githubRequest = route.request().postDataJSON();
      return route.fulfill({
        status: 400,
        json: { error: "email-credentials-not-found", message: "No email." },
      });
    });

    await page.goto("/login");
    await page.getByLabel("Remember Me").check();
    await page.getByRole("button", { name: "Github Sign In" }).click();
    await page
      .getByText("Unable to retrieve email from GitHub. Please try again or contact support.")
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).search).toBe("");
    expect(authorizeQuery.get("client_id")).toBe("e2e-client");
    expect(authorizeQuery.get("scope")).toBe("user:email");
    expect(authorizeQuery.get("redirect_uri")).toBe(`${baseUrl}/login-github-callback`);
    expect(githubRequest).toEqual({ credential: "e2e-github-code", rememberMe: true });
    await session.screenshot("accounts-19-github-email-missing");

    // A callback whose state this tab did not send is refused without calling the server.
    githubRequest = undefined;
    await page.goto("/login-github-callback?code=forged&state=forged");
    await page.waitForURL("**/login");
    await page.getByText("Signup error. Please try again later or contact support.").waitFor();
    expect(githubRequest).toBeUndefined();
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});

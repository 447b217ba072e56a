import { emptyPermissions } from "@prism/contract";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import {
  countMailTo,
  createUnverifiedAccount,
  createVerifiedAccount,
  isSessionAlive,
  readMailbox,
  signInElsewhere,
  type TestAccount,
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
 * The owner names their organization and invites `inviteeEmail` (billing and playground rights, no
 * payments) through the API, as another device would; returns the mailed link's path.
 */
async function inviteByOwner(
  baseUrl: string,
  owner: TestAccount,
  inviteeEmail: string,
  organizationName: string,
): Promise<string> {
  const cookie = await signInElsewhere(baseUrl, owner.email, owner.password);
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: baseUrl },
      body: JSON.stringify(body),
    });
    expect(response.ok, `${path}: ${response.status}`).toBe(true);
    return (await response.json()) as unknown;
  };
  const me = (await call("/v1/users/me", {})) as { organizations: { id: string }[] };
  const organizationId = me.organizations[0]?.id;
  await call("/v1/users/organizations/update-name", { organizationId, name: organizationName });
  const permissions = emptyPermissions();
  await call("/v1/users/organization-members/invite", {
    organizationId,
    emailList: inviteeEmail,
    permissions: {
      ...permissions,
      organization: { ...permissions.organization, billing: true, playground: true },
      projects: { all: true },
    },
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = (await readMailbox(baseUrl)).find((entry) => entry.to === inviteeEmail);
    const link = mail ? /https?:\/\/\S*\?invitation=[\w-]+/.exec(mail.text)?.[0] : undefined;
    if (link) return `${new URL(link).pathname}${new URL(link).search}`;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no invitation mail to ${inviteeEmail}`);
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

  it("signs up, resends and verifies the mailed code, lands on /home in the new organization, and logs out", async () => {
    const { page, baseUrl } = session;
    const email = uniqueEmail("signup");
    // A controllable clock for the Resend code cooldown; time otherwise flows as usual.
    await page.clock.install();
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

    // Resend code waits a little after each mail, then mails a fresh code (the old one is replaced).
    const firstCode = await waitForCode(baseUrl, email);
    expect(await page.getByRole("button", { name: /^Resend code in \d+s$/ }).isDisabled()).toBe(true);
    await page.clock.fastForward(31_000);
    await page.getByRole("button", { name: "Resend code", exact: true }).click();
    await page.getByText("We have sent you a new verification code.").waitFor();
    const code = await waitForCode(baseUrl, email, 1);
    await page.getByRole("button", { name: /^Resend code in \d+s$/ }).waitFor();
    await session.screenshot("accounts-02b-code-resent");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await session.screenshot("accounts-02c-code-resent-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    expect(typeof firstCode).toBe("string");
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

  it("greets an invitee by organization with the email filled in, joins, and keeps the organization and the page asked for across sign-ins", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Olga", lastName: "Owner" });
    const invitee = await createVerifiedAccount(baseUrl, { firstName: "Ivy", lastName: "Invitee" });
    const organizationName = `Team ${Date.now().toString(36)}`;
    const link = await inviteByOwner(baseUrl, owner, invitee.email, organizationName);

    // The mailed link, opened signed out: the login page names the organization and the address.
    await page.goto(link);
    await page.waitForURL("**/login?invitation=*");
    await page.getByText(`You have been invited to join ${organizationName}`).waitFor();
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe(invitee.email);
    const cookies = await session.context.cookies();
    expect(cookies.find((cookie) => cookie.name === "invitationId")?.value).toBe(
      new URL(link, baseUrl).searchParams.get("invitation"),
    );
    await session.screenshot("accounts-14-invitation-login");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await session.screenshot("accounts-14b-invitation-login-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    await page.getByLabel("Password", { exact: true }).fill(invitee.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/organization/members");
    const join = page.getByRole("dialog", { name: "Join Organization" });
    await join.getByText(organizationName).waitFor();
    await join.getByRole("button", { name: "Yes", exact: true }).click();
    const confirmed = page.getByRole("dialog", { name: "Invitation Confirmed" });
    await confirmed.waitFor();
    await confirmed.getByRole("button", { name: "Close", exact: true }).click();

    // The joined organization and its first project are selected, and no "add a payment method"
    // welcome pushes the invitee back to an empty organization of their own.
    await expect
      .poll(() => page.getByRole("button", { name: /^Organization: / }).getAttribute("aria-label"))
      .toBe(`Organization: ${organizationName}. Change organization`);
    await page.getByRole("button", { name: "Project: Default Project. Change project" }).waitFor();
    await page.waitForTimeout(1_500);
    expect(await page.getByRole("heading", { name: "Welcome to Prism!" }).count()).toBe(0);
    await session.screenshot("accounts-14c-joined-organization");
    const selection = (await session.context.cookies()).find(
      (cookie) => cookie.name === "selectedOrganizationId",
    );
    // Remembered for a year, not only for the browser session.
    expect(selection?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);

    // Signing out and back in, asking for the API keys page first: the page and the organization return.
    await page.getByRole("button", { name: "Account menu for Ivy Invitee" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.waitForURL("**/login");
    await page.goto("/projects/api-keys");
    await page.waitForURL("**/login");
    await page.getByLabel("Email").fill(invitee.email);
    await page.getByLabel("Password", { exact: true }).fill(invitee.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/projects/api-keys");
    await expect
      .poll(() => page.getByRole("button", { name: /^Organization: / }).getAttribute("aria-label"))
      .toBe(`Organization: ${organizationName}. Change organization`);
    await session.screenshot("accounts-14d-back-on-the-page-asked-for");
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
    const challenge = page.getByRole("dialog", { name: "Security Challenge" });
    await challenge.waitFor();
    // A click that lands while the modal is still opening meets no overlay yet (seen on a loaded CI
    // machine), so the outside click is repeated until one lands on the settled overlay.
    await vi.waitFor(
      async () => {
        await page.mouse.click(20, 20);
        await challenge.waitFor({ state: "hidden", timeout: 2_000 });
      },
      { timeout: 20_000, interval: 200 },
    );
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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { createVerifiedAccount, uniqueEmail } from "./mailbox";

describe("passkeys", () => {
  let session: BrowserSession;
  let apiBaseUrl: string;

  beforeAll(async () => {
    // The relying party is the console's configured host: http://localhost:<port> when no PUBLIC_URL is
    // set (an IP address can never be one), so the browser visits the same server by that name.
    const probe = await openBrowser();
    apiBaseUrl = probe.baseUrl;
    await probe.close();
    session = await openBrowser({ baseUrl: apiBaseUrl.replace("127.0.0.1", "localhost") });
  });

  afterAll(async () => {
    await session?.close();
  });

  it("registers a named passkey with Chromium's virtual authenticator, signs in with it, and removes it", async () => {
    const { page, context } = session;
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const account = await createVerifiedAccount(apiBaseUrl, {
      firstName: "Whitfield",
      lastName: "Diffie",
      email: uniqueEmail("passkey"),
    });
    const fullName = `${account.firstName} ${account.lastName}`;
    await skipWelcomePopup(page);
    await page.goto("/login");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();

    await page.goto("/settings/profile");
    const section = page.getByRole("region", { name: "Passkeys" });
    await section.getByText("No passkeys yet.").waitFor();
    await section.getByRole("button", { name: "Add Passkey" }).click();
    await section.getByText("Please enter a name").waitFor();
    await section.getByLabel("Passkey name").fill("Work laptop");
    await section.getByRole("button", { name: "Add Passkey" }).click();
    await page.getByText("Passkey added!").waitFor();
    const row = section.getByTestId("passkey-row");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Work laptop");
    expect(await row.textContent()).toContain("Never");
    // A discoverable credential: the authenticator keeps it, for sign-in without naming the account.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials.map((credential) => credential.isResidentCredential)).toEqual([true]);
    await section.scrollIntoViewIfNeeded();
    await session.screenshot("passkeys-01-profile");

    // Signed out, the passkey alone signs in: no password, no code. The button first: the authenticator
    // holds back (no user presence) while the form's autofill request starts and waits; then the user
    // is present again and the button's request (which replaces the waiting one) completes.
    const presence = (enabled: boolean) =>
      cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled });
    const logOut = async () => {
      await page.getByRole("button", { name: `Account menu for ${fullName}` }).click();
      await page.getByRole("menuitem", { name: "Logout" }).click();
      await page.getByRole("button", { name: "Yes" }).click();
    };
    await presence(false);
    const autofillOptions = page.waitForResponse((response) =>
      response.url().endsWith("/v1/users/passkeys/authentication-options"),
    );
    await logOut();
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await autofillOptions;
    // The autofill request is now waiting inside the browser (it reads the options just answered).
    await page.waitForTimeout(500);
    await session.screenshot("passkeys-02-login");
    await presence(true);
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/home");

    // Conditional UI: on the sign-in form the browser offers the passkey in the Email field's autofill;
    // the virtual authenticator picks it at once, so signing out lands straight back in.
    await logOut();
    await page.getByRole("button", { name: `Account menu for ${fullName}` }).waitFor();

    await page.goto("/settings/profile");
    await expect.poll(() => row.textContent()).not.toContain("Never");
    await section.getByRole("button", { name: "Remove Work laptop" }).click();
    await page.getByRole("button", { name: "Yes, proceed" }).click();
    await page.getByText("Passkey removed!").waitFor();
    await section.getByText("No passkeys yet.").waitFor();

    // The authenticator still holds the key, but no account does any more.
    await logOut();
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await page
      .getByRole("alert")
      .getByText("This passkey is not recognised. Please try another way to sign in.")
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });
});

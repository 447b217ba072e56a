import { emptyPermissions, TWO_FACTOR_ENROLMENT_REQUIRED } from "@prism/contract";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { post } from "./funded-owner";
import { expectNoHorizontalOverflow } from "./layout";
import { createVerifiedAccount, type TestAccount, uniqueEmail } from "./mailbox";
import { addMember } from "./members";

async function signIn(session: BrowserSession, account: TestAccount) {
  const response = await session.page.request.post(`${session.baseUrl}/v1/users/login`, {
    data: { email: account.email, password: account.password },
    headers: { origin: session.baseUrl },
  });
  expect(response.status()).toBe(200);
}

describe("audit log", () => {
  let session: BrowserSession;
  let phone: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
    phone = await openBrowser({ phone: true });
    for (const browser of [session, phone]) {
      await browser.context.addInitScript(() => localStorage.setItem("welcomePopupSeen", "true"));
    }
  });

  afterAll(async () => {
    await session?.close();
    await phone?.close();
  });

  it("shows the invitation of a member in the audit log, filters it and exports it", async () => {
    const { page } = session;
    const owner = await createVerifiedAccount(session.baseUrl, { firstName: "Olivia", lastName: "Owner" });
    await signIn(session, owner);

    // The owner invites a member from the Members page, giving them the new audit right.
    await page.goto("/organization/members");
    const inviteeEmail = uniqueEmail("audited");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Invite Members or Permissions" });
    await dialog.getByLabel("Email addresses").fill(inviteeEmail);
    const auditBox = dialog.getByRole("checkbox", { name: "Organization: Audit log" });
    await auditBox.check();
    await dialog.getByText("Sees every change made in the organization, and exports it.").waitFor();
    await page.waitForTimeout(400);
    await session.screenshot("audit-log-01-permission-dialog");
    await dialog.getByRole("button", { name: "Send Invites" }).click();
    await dialog.waitFor({ state: "hidden" });

    // The sidebar leads to the log, where the invitation is the newest entry, by the owner.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL("**/organization/audit-log");
    const invited = page.locator('[data-testid="audit-row"][data-action="member.invited"]').first();
    await invited.waitFor();
    expect(await invited.innerText()).toContain("Olivia Owner");
    expect(await invited.innerText()).toContain(inviteeEmail);
    // The organization's creation at sign-up is there too.
    await page.locator('[data-testid="audit-row"][data-action="organization.created"]').waitFor();
    await session.screenshot("audit-log-02-entries");

    // Filtering by action leaves the invitation alone.
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "Member invited" }).click();
    await expect.poll(() => page.getByTestId("audit-row").count()).toBe(1);
    await session.screenshot("audit-log-03-filtered");

    // The CSV export carries the same filter.
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    expect(href).toContain("action=member.invited");
    const csv = await page.request.get(`${session.baseUrl}${href}`);
    expect(csv.status()).toBe(200);
    const text = await csv.text();
    expect(text.split("\n")[0]).toContain("Time (UTC)");
    expect(text).toContain("member.invited");
    expect(text).toContain(inviteeEmail);

    // A filter nothing matches says so.
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "Recharge failed" }).click();
    await page.getByText("No matching entries").waitFor();
    await session.screenshot("audit-log-04-empty");

    // The Security page: the owner without a second factor is told to set one up first.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" }).click();
    await page.getByText("Set up two-factor authentication for your own account").waitFor();
    expect(await page.getByRole("switch", { name: "Require two-factor sign-in" }).isDisabled()).toBe(true);
    await session.screenshot("audit-log-05-security");

    // At phone width the entries are cards and nothing scrolls sideways.
    await signIn(phone, owner);
    await phone.page.goto("/organization/audit-log");
    await phone.page.locator('[data-testid="audit-row"][data-action="member.invited"]').first().waitFor();
    await expectNoHorizontalOverflow(phone.page, "audit log on a phone");
    await phone.screenshot("audit-log-06-phone");
  });

  it("lets the owner require two-factor sign-in, and sends a member without it to enrol", async () => {
    const { page, baseUrl } = session;
    await session.context.clearCookies();
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Sam", lastName: "Secure" });
    await signIn(session, owner);
    const me = await post<{ organizations: { id: string }[] }>(page, baseUrl, "/v1/users/me");
    const organizationId = me.organizations[0]?.id ?? "";
    // The owner enrols an authenticator first (the account-security journey does this on screen).
    const { secret } = await post<{ secret: string }>(page, baseUrl, "/v1/users/two-factor/start");
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    await post(page, baseUrl, "/v1/users/two-factor/enable", { code });

    await page.goto("/organization/security");
    const toggle = page.getByRole("switch", { name: "Require two-factor sign-in" });
    await expect.poll(() => toggle.isDisabled()).toBe(false);
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await session.screenshot("audit-log-07-security-required");
    await page.goto("/organization/audit-log");
    await page
      .locator('[data-testid="audit-row"][data-action="organization.two-factor-requirement-changed"]')
      .waitFor();

    // A member without a second factor is sent to their profile, told why.
    const member = await createVerifiedAccount(baseUrl, { firstName: "Max", lastName: "Member" });
    await addMember(page, baseUrl, organizationId, member, emptyPermissions());
    await phone.context.clearCookies();
    await signIn(phone, member);
    // The member's own organization comes first in the picker: the invited one is chosen as the picker would.
    await phone.context.addCookies([{ name: "selectedOrganizationId", value: organizationId, url: baseUrl }]);
    await phone.page.goto("/organization/members");
    await phone.page.waitForURL("**/settings/profile?two-factor-required=1#two-factor");
    await phone.page.getByText(TWO_FACTOR_ENROLMENT_REQUIRED).waitFor();
    // The members page never loaded, so no refused call put an error dialog on top.
    await phone.page.waitForTimeout(500);
    expect(await phone.page.getByRole("dialog").count()).toBe(0);
    await expectNoHorizontalOverflow(phone.page, "profile with the two-factor notice");
    await phone.screenshot("audit-log-08-enrol-required-phone", { fullPage: false });
  });
});

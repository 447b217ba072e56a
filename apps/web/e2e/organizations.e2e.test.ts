import { USAGE_PATH } from "@prism/contract";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BrowserSession, DESKTOP_VIEWPORT, openBrowser, PHONE_VIEWPORT } from "./browser";
import { type Me, post } from "./funded-owner";
import {
  countMailTo,
  createVerifiedAccount,
  readMailbox,
  signInElsewhere,
  type TestAccount,
  uniqueEmail,
  waitForCode,
} from "./mailbox";
import { addMember } from "./members";

/** Signs in through the API with the page's cookie jar, as the console's own origin. */
async function signIn(session: BrowserSession, account: TestAccount) {
  const response = await session.page.request.post(`${session.baseUrl}/v1/users/login`, {
    data: { email: account.email, password: account.password },
    headers: { origin: session.baseUrl },
  });
  expect(response.status()).toBe(200);
}

/** Ends the browser's session locally: the next user signs in on the same browser. */
async function signOut(session: BrowserSession) {
  await session.context.clearCookies();
}

async function waitForInvitationLink(baseUrl: string, to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = (await readMailbox(baseUrl)).find((entry) => entry.to.toLowerCase() === to.toLowerCase());
    const link = mail ? /https?:\/\/\S*\?invitation=[\w-]+/.exec(mail.text)?.[0] : undefined;
    if (link) {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no invitation mail to ${to} within ${timeoutMs} ms`);
}

/** Screenshots taken while a dialog opens would catch it mid-transition (Mantine fades modals in). */
async function settledScreenshot(session: BrowserSession, name: string) {
  await session.page.waitForTimeout(400);
  await session.screenshot(name);
}

async function toast(page: Page, text: string) {
  await page.locator(".mantine-Notification-root").getByText(text).first().waitFor();
}

/** The labels of the sidebar's Organization submenu (it opens on the /organization/* routes). */
async function organizationMenu(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Members" }).waitFor();
  return nav.locator('a[href^="/organization/"]').allInnerTexts();
}

async function openOrganizationPicker(page: Page) {
  await page.getByRole("button", { name: /^Organization: / }).click();
}

describe("organizations", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
    // The welcome dialog of new accounts is the accounts journeys' business, not this file's.
    await session.context.addInitScript(() => localStorage.setItem("welcomePopupSeen", "true"));
  });

  beforeEach(async () => {
    await signOut(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("invites a member who signs up through the mailed link, then edits their rights and sees them leave", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Olivia", lastName: "Owner" });
    const organizationName = `Acme ${Date.now().toString(36)}`;

    // The owner names the organization and invites a second address with a few rights.
    await signIn(session, owner);
    await page.goto("/organization/general");
    const nameField = page.getByRole("textbox", { name: /^Name/ });
    await nameField.fill(organizationName);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await toast(page, "Changes have been saved!");
    await expect
      .poll(() => page.getByRole("button", { name: /^Organization: / }).innerText())
      .toContain(organizationName);
    await session.screenshot("organizations-01-general");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" }).click();
    const ownerRow = page.getByTestId(`member-${owner.email.toLowerCase()}`);
    await ownerRow.getByText("You", { exact: true }).waitFor();
    await ownerRow.getByText("Owner", { exact: true }).waitFor();
    expect(await ownerRow.getByRole("button", { name: "Leave", exact: true }).isDisabled()).toBe(true);
    expect(await ownerRow.getByRole("button", { name: /^Edit permissions/ }).isDisabled()).toBe(true);

    const inviteeEmail = uniqueEmail("invitee");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Invite Members or Permissions" });
    await dialog.getByRole("button", { name: "Select All", exact: true }).click();
    expect(await dialog.getByRole("checkbox", { name: "Project: Default Project" }).isDisabled()).toBe(true);
    // A role fills the boxes, which stay editable.
    await dialog.getByRole("button", { name: "Developer", exact: true }).click();
    await dialog.getByText("Developer: The playground and API keys of every project.").waitFor();
    expect(await dialog.getByRole("checkbox", { name: "Organization: Playground" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "API Keys: Create" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "Organization: Payments" }).isChecked()).toBe(false);
    expect(await dialog.getByRole("checkbox", { name: "All Projects" }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Deselect All", exact: true }).click();
    await dialog.getByLabel("Email addresses").fill(inviteeEmail);
    await dialog.getByRole("checkbox", { name: "Organization: Billing" }).check();
    await dialog.getByRole("checkbox", { name: "Project: Default Project" }).check();
    await settledScreenshot(session, "organizations-02-invite-dialog");
    await dialog.getByRole("button", { name: "Send Invites", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    const pending = page.getByRole("region", { name: "Pending Invitations" });
    await pending.getByText(inviteeEmail).waitFor();
    await session.screenshot("organizations-03-pending-invitation");

    // The invitee opens the mailed link signed out, signs up, and joins.
    const link = await waitForInvitationLink(baseUrl, inviteeEmail);
    const mailsBeforeSignUp = await countMailTo(baseUrl, inviteeEmail);
    await signOut(session);
    await page.goto(link);
    await page.waitForURL("**/login?invitation=*");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await page.getByLabel("First Name").fill("Ivan");
    await page.getByLabel("Last Name").fill("Invitee");
    await page.getByLabel("Email").fill(inviteeEmail);
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!pass");
    await page.getByLabel("Confirm Password", { exact: true }).fill("Str0ng!pass");
    await page.getByRole("checkbox", { name: /terms and conditions/ }).check();
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    const code = await waitForCode(baseUrl, inviteeEmail, mailsBeforeSignUp);
    await page.getByLabel("Verification Code").fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();

    const join = page.getByRole("dialog", { name: "Join Organization" });
    await join.getByText(organizationName).waitFor();
    expect(new URL(page.url()).pathname).toBe("/organization/members");
    await settledScreenshot(session, "organizations-04-join-organization");
    await join.getByRole("button", { name: "Yes", exact: true }).click();
    const confirmed = page.getByRole("dialog", { name: "Invitation Confirmed" });
    await confirmed.waitFor();
    await settledScreenshot(session, "organizations-05-invitation-confirmed");
    await confirmed.getByRole("button", { name: "Close", exact: true }).click();

    // Only the menus and controls the invitee's rights allow.
    await expect
      .poll(() => page.getByRole("button", { name: /^Organization: / }).innerText())
      .toContain(organizationName);
    // The newcomer landed in the organization that invited them, with no "Ivan's Organization" of their own.
    expect(
      await post<{ organizations: { name: string }[] }>(page, baseUrl, "/v1/users/me").then((me) =>
        me.organizations.map((organization) => organization.name),
      ),
    ).toEqual([organizationName]);
    expect(await organizationMenu(page)).toEqual(["Members", "Billing"]);
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByText("Playground", { exact: true }).count()).toBe(0);
    const inviteeRow = page.getByTestId(`member-${inviteeEmail}`);
    await inviteeRow.getByText("You", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Invite", exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Edit permissions/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Remove / }).count()).toBe(0);
    await inviteeRow.getByRole("button", { name: "Leave", exact: true }).waitFor();
    await session.screenshot("organizations-06-member-view");

    // The owner grants Invoices.
    await signOut(session);
    await signIn(session, owner);
    await page.goto("/organization/members");
    // Each member's rights in a few words.
    const inviteeAccess = page.getByTestId(`member-${inviteeEmail}`).getByTestId("member-access");
    expect(await inviteeAccess.innerText()).toBe("Billing · 1 project");
    expect(
      await page.getByTestId(`member-${owner.email.toLowerCase()}`).getByTestId("member-access").innerText(),
    ).toBe("Owner · all rights");
    await page.getByRole("button", { name: "Edit permissions of Ivan Invitee", exact: true }).click();
    // Editing one member is titled for what it does; inviting keeps the spec's title.
    const edit = page.getByRole("dialog", { name: "Edit Permissions" });
    expect(await edit.getByRole("checkbox", { name: "Organization: Billing" }).isChecked()).toBe(true);
    await edit.getByRole("button", { name: "Transfer Ownership", exact: true }).waitFor();
    await edit.getByRole("checkbox", { name: "Organization: Invoices" }).check();
    await settledScreenshot(session, "organizations-07-edit-permissions");
    await edit.getByRole("button", { name: "Save Changes", exact: true }).click();
    await toast(page, "Changes have been saved!");
    await edit.waitFor({ state: "hidden" });
    await expect.poll(() => inviteeAccess.innerText()).toBe("Billing, Invoices · 1 project");
    await session.screenshot("organizations-07b-members-with-rights");

    // The member sees the new menu, then leaves.
    await signOut(session);
    await signIn(session, { ...owner, email: inviteeEmail, password: "Str0ng!pass" });
    await page.goto("/organization/members");
    await openOrganizationPicker(page);
    await page.getByRole("menuitem", { name: organizationName }).click();
    await page.waitForURL("**/home");
    await page.goto("/organization/members");
    expect(await organizationMenu(page)).toEqual(["Members", "Billing", "Invoices"]);
    await page
      .getByTestId(`member-${inviteeEmail}`)
      .getByRole("button", { name: "Leave", exact: true })
      .click();
    const leave = page.getByRole("dialog", { name: "Leave Organization" });
    await leave.getByText(organizationName).waitFor();
    await leave.getByRole("button", { name: "Yes, proceed", exact: true }).click();
    await page.waitForURL("**/home");
    await expect
      .poll(() => page.getByRole("button", { name: /^Organization: / }).innerText())
      .not.toContain(organizationName);
    await openOrganizationPicker(page);
    expect(await page.getByRole("menuitem", { name: organizationName }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await session.screenshot("organizations-08-after-leaving");

    // The owner's list no longer has them.
    await signOut(session);
    await signIn(session, owner);
    await page.goto("/organization/members");
    await page.getByTestId(`member-${owner.email.toLowerCase()}`).waitFor();
    expect(await page.getByTestId(`member-${inviteeEmail}`).count()).toBe(0);
  });

  it("says in the Remove dialog which API keys go with a member, and their keys stop working", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Rita", lastName: "Owner" });
    const builder = await createVerifiedAccount(baseUrl, { firstName: "Kai", lastName: "Builder" });
    await signIn(session, owner);
    const me = await post<Me>(page, baseUrl, "/v1/users/me");
    const organizationId = me.organizations[0]!.id;
    const projectId = me.organizations[0]!.projects[0]!.id;
    await addMember(page, baseUrl, organizationId, builder, {
      owner: false,
      organization: { general: false, billing: false, payments: false, invoices: false, playground: true },
      members: { invite: false, edit: false, delete: false },
      apiKeys: { create: true, delete: false },
      projects: { all: true },
    });
    const builderCookie = await signInElsewhere(baseUrl, builder.email, builder.password);
    const keys: string[] = [];
    for (const apiKeyName of ["ci", "staging"]) {
      const created = await fetch(`${baseUrl}/v1/users/api-keys/insert`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: builderCookie, origin: baseUrl },
        body: JSON.stringify({ projectId, apiKeyName }),
      });
      expect(created.status).toBe(200);
      keys.push(((await created.json()) as { apiKey: { content: string } }).apiKey.content);
    }
    const usage = (key: string) =>
      fetch(`${baseUrl}${USAGE_PATH}?start=2026-01-01&end=2026-01-31&group_by=day`, {
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await usage(keys[0]!)).status).toBe(200);

    await page.goto("/organization/members");
    await page
      .getByTestId(`member-${builder.email.toLowerCase()}`)
      .getByRole("button", { name: "Remove Kai Builder" })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByText(
        "The 2 API keys they created will be revoked with them: calls made with them will stop working.",
      )
      .waitFor();
    await settledScreenshot(session, "organizations-07c-remove-member-with-keys");
    await page.setViewportSize(PHONE_VIEWPORT);
    await settledScreenshot(session, "phone-organizations-07c-remove-member-with-keys");
    await page.setViewportSize(DESKTOP_VIEWPORT);
    await dialog.getByRole("button", { name: "Yes, proceed" }).click();
    await page.getByTestId(`member-${builder.email.toLowerCase()}`).waitFor({ state: "detached" });

    for (const key of keys) expect((await usage(key)).status).toBe(401);
    await page.goto("/projects/api-keys");
    await page.getByText("ci", { exact: true }).waitFor({ state: "detached" });
    expect(await page.getByText("staging", { exact: true }).count()).toBe(0);
  });

  it("offers a member only what the server would allow them", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Oscar", lastName: "Owner" });
    const manager = await createVerifiedAccount(baseUrl, { firstName: "Mia", lastName: "Manager" });
    await signIn(session, owner);
    const me = await post<Me>(page, baseUrl, "/v1/users/me");
    const organizationId = me.organizations[0]!.id;
    const projectId = me.organizations[0]!.projects[0]!.id;
    await addMember(page, baseUrl, organizationId, manager, {
      owner: false,
      organization: { general: false, billing: false, payments: false, invoices: false, playground: true },
      members: { invite: true, edit: true, delete: false },
      apiKeys: { create: false, delete: false },
      projects: { all: false, [projectId]: true },
    });

    await signOut(session);
    await signIn(session, manager);
    await page.goto("/organization/members");
    await openOrganizationPicker(page);
    await page.getByRole("menuitem", { name: "Oscar's Organization" }).click();
    await page.waitForURL("**/home");
    await page.goto("/organization/members");

    // No change to one's own rights: the button says why.
    const myRow = page.getByTestId(`member-${manager.email}`);
    const ownEdit = myRow.getByRole("button", { name: /^Edit permissions/ });
    expect(await ownEdit.isDisabled()).toBe(true);
    await myRow
      .getByTestId("member-actions-note")
      .getByText("You cannot change your own permissions.")
      .waitFor();
    await myRow.locator("span", { has: page.getByRole("button", { name: /^Edit permissions/ }) }).hover();
    await expect.poll(() => page.getByText("You cannot change your own permissions.").count()).toBe(2);
    expect(
      await page
        .getByTestId(`member-${owner.email.toLowerCase()}`)
        .getByRole("button", { name: /^Edit permissions/ })
        .isDisabled(),
    ).toBe(true);

    // The invite dialog offers only the rights the manager holds, and says why the others are off.
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = page.getByRole("dialog");
    for (const name of [
      "Organization: Payments",
      "Organization: General",
      "Members: Delete",
      "API Keys: Create",
      "All Projects",
    ]) {
      expect(await dialog.getByRole("checkbox", { name }).isDisabled(), name).toBe(true);
    }
    for (const name of [
      "Organization: Playground",
      "Members: Invite",
      "Members: Edit",
      "Project: Default Project",
    ]) {
      expect(await dialog.getByRole("checkbox", { name }).isDisabled(), name).toBe(false);
    }
    await dialog
      .locator("[data-refused]", { has: page.getByRole("checkbox", { name: "Organization: Payments" }) })
      .hover();
    await page.getByText("You can only grant rights you hold yourself.").first().waitFor();
    await dialog.getByRole("button", { name: "Select All", exact: true }).click();
    expect(await dialog.getByRole("checkbox", { name: "Organization: Payments" }).isChecked()).toBe(false);
    expect(await dialog.getByRole("checkbox", { name: "Organization: Playground" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "Project: Default Project" }).isChecked()).toBe(true);
    await settledScreenshot(session, "organizations-09-invite-within-own-rights");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    // Creating a project needs organization.general, which the manager lacks: the picker does not offer it.
    await page.getByRole("button", { name: /^Project: / }).click();
    await page.getByRole("menuitem", { name: /^Default Project/ }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Create project" }).count()).toBe(0);
    await page.keyboard.press("Escape");
  });

  it("creates an API key, shows it once, renames it inline and deletes it", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Kay", lastName: "Keys" });
    await signIn(session, owner);
    await page.goto("/projects/api-keys");
    await page
      .getByText("No API keys have been created yet. Generate a new key to start making API requests.")
      .waitFor();
    await session.screenshot("organizations-10-api-keys-empty");

    // Create: the name is required, the secret is shown once.
    await page.getByRole("button", { name: "Create New", exact: true }).click();
    const create = page.getByRole("dialog", { name: "Create New API Key" });
    await create.getByRole("button", { name: "Create", exact: true }).click();
    await create.getByText("Please enter a name.").waitFor();
    await create.getByLabel("Name").fill("Backend");
    await create.getByRole("button", { name: "Create", exact: true }).click();
    const created = page.getByRole("dialog", { name: "API Key Created" });
    const secret = await created.getByRole("textbox", { name: "Secret key" }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await settledScreenshot(session, "organizations-11-api-key-created");
    await created.getByRole("button", { name: "Done", exact: true }).click();
    await created.waitFor({ state: "hidden" });

    const row = page.getByTestId("api-key-row");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain(secret.slice(-4));
    expect(await row.innerText()).toContain("Kay Keys");
    expect(await page.content()).not.toContain(secret);

    // Rename inline: Escape reverts without a call, Enter commits.
    const name = row.getByLabel("API key name");
    await name.fill("Discarded");
    await name.press("Escape");
    expect(await name.inputValue()).toBe("Backend");
    await name.fill("Backend v2");
    const update = page.waitForResponse((response) => response.url().endsWith("/v1/users/api-keys/update"));
    await name.press("Enter");
    expect((await update).status()).toBe(200);
    // The rename says it was saved.
    await toast(page, "Changes have been saved!");
    await session.screenshot("organizations-12a-api-key-rename-saved");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByTestId("api-key-row").waitFor();
      await session.screenshot("organizations-12b-api-keys-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await page.reload();
    await expect
      .poll(() => page.getByTestId("api-key-row").getByLabel("API key name").inputValue())
      .toBe("Backend v2");
    await session.screenshot("organizations-12-api-key-renamed");

    // Delete.
    await page.getByRole("button", { name: "Delete Backend v2", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Delete API Key" })
      .getByRole("button", { name: "Yes, proceed", exact: true })
      .click();
    await toast(page, "The API Key has been delete!");
    await page
      .getByText("No API keys have been created yet. Generate a new key to start making API requests.")
      .waitFor();
    await session.screenshot("organizations-13-api-key-deleted");
  });

  it("creates, renames and archives projects and organizations from the pickers, keeping the last one", async () => {
    const { page, baseUrl } = session;
    const owner = await createVerifiedAccount(baseUrl, { firstName: "Pat", lastName: "Picker" });
    await signIn(session, owner);
    await page.goto("/home");
    const projectPicker = page.getByRole("button", { name: /^Project: / });
    const organizationPicker = page.getByRole("button", { name: /^Organization: / });

    // A new project from the picker: the name is required, and the new project is selected.
    await projectPicker.click();
    await page.getByRole("menuitem", { name: "Create project" }).click();
    const createProject = page.getByRole("dialog", { name: "Create project" });
    // The dialog has finished opening once its name field holds the focus (data-autofocus); a click
    // on Create while it still opened went unanswered once on a loaded CI machine.
    await expect
      .poll(() =>
        createProject.getByLabel("Project name").evaluate((field) => field === document.activeElement),
      )
      .toBe(true);
    await createProject.getByRole("button", { name: "Create", exact: true }).click();
    await createProject.getByText("Please enter a name.").waitFor();
    await createProject.getByLabel("Project name").fill("Mobile App");
    await createProject.getByRole("button", { name: "Create", exact: true }).click();
    await expect.poll(() => projectPicker.innerText()).toContain("Mobile App");

    // Rename it on /projects/general.
    await page.goto("/projects/general");
    const projectName = page.getByRole("textbox", { name: /^Project Name/ });
    expect(await projectName.inputValue()).toBe("Mobile App");
    await projectName.fill("Mobile App v2");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await toast(page, "Changes have been saved!");
    await expect.poll(() => projectPicker.innerText()).toContain("Mobile App v2");
    await session.screenshot("organizations-20-project-general");

    // Archive it: the first remaining project is selected. The last one cannot be archived.
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Archive Project" })
      .getByRole("button", { name: "Yes, proceed", exact: true })
      .click();
    await expect.poll(() => projectPicker.innerText()).toContain("Default Project");
    expect(await page.getByRole("textbox", { name: /^Project Name/ }).inputValue()).toBe("Default Project");
    // The last project: the refusal is written beside a disabled Archive, before anything is sent.
    await page
      .getByTestId("archive-blocked")
      .getByText("At least one project is required within the organization.", { exact: false })
      .waitFor();
    expect(await page.getByRole("button", { name: "Archive", exact: true }).isDisabled()).toBe(true);
    await settledScreenshot(session, "organizations-21-last-project");

    // A second organization from the picker, selected with its first project; then archived.
    await organizationPicker.click();
    await page.getByRole("menuitem", { name: "Create organization" }).click();
    const createOrganization = page.getByRole("dialog", { name: "Create organization" });
    await createOrganization.getByRole("button", { name: "Create", exact: true }).click();
    await createOrganization.getByText("Please fill all the required fields").waitFor();
    await createOrganization.getByLabel("Organization name").fill("Side Project Inc");
    await createOrganization.getByRole("button", { name: "Create", exact: true }).click();
    await expect.poll(() => organizationPicker.innerText()).toContain("Side Project Inc");
    await expect.poll(() => projectPicker.innerText()).toContain("Default Project");

    await page.goto("/organization/general");
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Archive Organization" })
      .getByRole("button", { name: "Yes, proceed", exact: true })
      .click();
    await page.waitForURL("**/home");
    await expect.poll(() => organizationPicker.innerText()).not.toContain("Side Project Inc");

    await page.goto("/organization/general");
    await page
      .getByTestId("archive-blocked")
      .getByText("You must belong to at least one active organization.", { exact: false })
      .waitFor();
    expect(await page.getByRole("button", { name: "Archive", exact: true }).isDisabled()).toBe(true);
    await settledScreenshot(session, "organizations-22-last-organization");
  });
});

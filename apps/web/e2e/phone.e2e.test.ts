import { FEATURES } from "@prism/contract";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { post, signUpFundedOwner } from "./funded-owner";
import { expectPhoneLayout, expectTextNotClipped, expectWithinViewportWidth } from "./layout";
import { createVerifiedAccount, uniqueEmail } from "./mailbox";
import { addMember } from "./members";
import { historyRows, postFeatureForm } from "./playground-helpers";

/**
 * Every page of the console on a phone (390×844): none scrolls sideways, every button and link of the
 * top bar and the page is on screen, and a screenshot of each is kept (`phone-*.png`).
 */

/** Waits for fonts and transitions to settle, checks the layout, then keeps a screenshot. */
async function checkAndShoot(session: BrowserSession, name: string) {
  await session.page.waitForTimeout(300);
  await expectPhoneLayout(session.page, name);
  await session.screenshot(`phone-${name}`);
}

/** A light picture with a red disc, for a background to remove. */
async function makePng(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#c8283c"/></svg>`;
  return sharp({ create: { width, height, channels: 3, background: { r: 225, g: 235, b: 245 } } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
}

async function openPage(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await page.getByRole("heading", { name: heading, level: 2 }).first().waitFor();
}

describe("the console on a phone", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ phone: true });
    await session.context.addInitScript(() => localStorage.setItem("welcomePopupSeen", "true"));
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows every mode of the login screen, the terms, Not Found and the API reference without a sideways scroll", async () => {
    const { page, baseUrl } = session;
    await page.goto("/login");
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await checkAndShoot(session, "login-sign-in");

    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("First Name").waitFor();
    await checkAndShoot(session, "login-sign-up");

    await page.getByLabel("First Name").fill("Pat");
    await page.getByLabel("Last Name").fill("Phone");
    await page.getByLabel("Email").fill(uniqueEmail("phone-signup"));
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!pass");
    await page.getByLabel("Confirm Password", { exact: true }).fill("Str0ng!pass");
    await page.getByRole("checkbox", { name: /terms and conditions/ }).check();
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("Verification Code").waitFor();
    await checkAndShoot(session, "login-verification-code");

    const account = await createVerifiedAccount(baseUrl);
    await page.goto("/login");
    await page.getByRole("button", { name: "Recover Password" }).click();
    await page.getByLabel("Email").fill(account.email);
    await checkAndShoot(session, "login-forgot-password");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("textbox", { name: "New Password" }).waitFor();
    await checkAndShoot(session, "login-change-password");

    await page.goto("/terms");
    await page.getByRole("heading").first().waitFor();
    await checkAndShoot(session, "terms");

    await page.goto("/no/such/page");
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
    await checkAndShoot(session, "not-found");

    await page.goto("/docs");
    await page.getByRole("heading", { name: "Prism API" }).first().waitFor();
    await checkAndShoot(session, "docs");
  });

  it("shows every signed-in page usable at 390 px, the members page as readable cards", async () => {
    const { page, baseUrl } = session;
    await session.context.clearCookies();
    const { organizationId, projectId } = await signUpFundedOwner(page, baseUrl, {
      firstName: "Ada",
      lastName: "Lovelace",
      label: "phone-owner",
    });
    await post(page, baseUrl, "/v1/users/api-keys/insert", { projectId, apiKeyName: "Phone key" });

    // A second member with a long address, and a pending invitation, so the members page has every kind of row.
    const member = await createVerifiedAccount(baseUrl, {
      firstName: "Bartholomew",
      lastName: "Longname-Featherstonehaugh",
      email: uniqueEmail("phone-member-with-a-long-address"),
    });
    const memberPermissions = {
      owner: false,
      organization: { general: false, billing: true, payments: true, invoices: true, playground: false },
      members: { invite: false, edit: false, delete: false },
      apiKeys: { create: false, delete: false },
      projects: { all: false, [projectId]: true },
    };
    await addMember(page, baseUrl, organizationId, member, memberPermissions);
    await post(page, baseUrl, "/v1/users/organization-members/invite", {
      organizationId,
      emailList: uniqueEmail("phone-pending"),
      permissions: memberPermissions,
    });

    await openPage(page, "/home", "Usage");
    // The pickers say which organization and project are selected, in full.
    const organizationPicker = page.getByRole("button", { name: /^Organization: / });
    const projectPicker = page.getByRole("button", { name: /^Project: / });
    await expectTextNotClipped(organizationPicker.getByText("Ada's Organization"), "the organization picker");
    await expectTextNotClipped(projectPicker.getByText("Default Project"), "the project picker");
    await checkAndShoot(session, "home");

    // The menu offers the API reference, which the top bar has no room for.
    await page.getByRole("button", { name: /^Account menu for / }).click();
    const docs = page.getByRole("menuitem", { name: "API reference" });
    await docs.waitFor();
    expect(await docs.getAttribute("href")).toBe("/docs");
    await session.page.waitForTimeout(300);
    await expectPhoneLayout(page, "user menu");
    await expectWithinViewportWidth(page.getByRole("menu"), "the account menu");
    await session.screenshot("phone-user-menu", { fullPage: false });
    await page.keyboard.press("Escape");

    // The sidebar is a drawer behind the burger.
    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).waitFor();
    await session.page.waitForTimeout(300);
    await session.screenshot("phone-navigation", { fullPage: false });
    await page
      .getByRole("navigation", { name: "Sidebar" })
      .getByRole("button", { name: "Close navigation" })
      .click();

    await openPage(page, "/organization/general", "Organization");
    await checkAndShoot(session, "organization-general");

    await openPage(page, "/organization/members", "Members");
    const invite = page.getByRole("button", { name: "Invite", exact: true });
    await expectTextNotClipped(invite, "the Invite button");
    const members = page.getByRole("region", { name: "Members", exact: true });
    const ownerRow = members.getByTestId(/^member-e2e-phone-owner/);
    await expectTextNotClipped(ownerRow.getByText("You", { exact: true }), "the You badge");
    await expectTextNotClipped(ownerRow.getByText("Owner", { exact: true }), "the Owner badge");
    const memberRow = members.getByTestId(`member-${member.email.toLowerCase()}`);
    await expectTextNotClipped(memberRow.getByText(member.email, { exact: true }), "the member's email");
    await expectWithinViewportWidth(
      memberRow.getByRole("button", { name: /^Edit permissions/ }),
      "Edit permissions",
    );
    await expectWithinViewportWidth(memberRow.getByRole("button", { name: /^Remove/ }), "Remove");
    await page
      .getByRole("region", { name: "Pending Invitations" })
      .getByRole("button", { name: /^Revoke/ })
      .waitFor();
    await checkAndShoot(session, "organization-members");

    await memberRow.getByRole("button", { name: /^Edit permissions/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Save Changes" }).waitFor();
    await session.page.waitForTimeout(400);
    await expectWithinViewportWidth(dialog.getByRole("button", { name: "Save Changes" }), "Save Changes");
    await session.screenshot("phone-organization-members-edit");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    await openPage(page, "/organization/payments", "Payments");
    await checkAndShoot(session, "organization-payments");
    await openPage(page, "/organization/billing", "Billing");
    await checkAndShoot(session, "organization-billing");
    await openPage(page, "/organization/invoices", "Invoices");
    await checkAndShoot(session, "organization-invoices");
    await openPage(page, "/projects/general", "Project");
    await checkAndShoot(session, "projects-general");
    await openPage(page, "/projects/api-keys", "API Keys");
    await page.getByTestId("api-key-row").first().waitFor();
    await checkAndShoot(session, "projects-api-keys");

    // One finished edit, so a history row, the gallery and the comparison are seen on a phone too.
    const form = new FormData();
    form.append(
      "image",
      new Blob([new Uint8Array(await makePng(451, 300))], { type: "image/png" }),
      "photo.png",
    );
    const removal = await postFeatureForm(page, baseUrl, projectId, "/v1/images/background-removal", form);
    expect(removal.status, await removal.clone().text()).toBe(200);

    for (const feature of FEATURES) {
      await openPage(page, feature.playgroundRoute, feature.name);
      await page.getByTestId("price-line").or(page.getByTestId("feature-unavailable")).first().waitFor();
      if (feature.id === "image-background-removal") await historyRows(page, "done").waitFor();
      await checkAndShoot(session, `playground-${feature.playgroundRoute.split("/").pop()}`);
    }

    await openPage(page, "/playground/image-background-removal", "Background Removal");
    const row = historyRows(page, "done");
    await row.getByRole("button", { name: "Open result image" }).click();
    const gallery = page.getByRole("dialog", { name: "Image gallery" });
    await gallery.getByTestId("lightbox-dimensions").getByText("451 × 300 px").first().waitFor();
    const shown = gallery.locator(".yarl__slide_current img.yarl__slide_image");
    await expect
      .poll(async () => {
        const box = await shown.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 390.5 && box.width > 300;
      })
      .toBe(true);
    await session.page.waitForTimeout(300);
    await session.screenshot("phone-playground-lightbox", { fullPage: false });
    await gallery.getByRole("button", { name: "Close gallery" }).click();
    await gallery.waitFor({ state: "hidden" });

    await row.getByRole("button", { name: "Compare" }).click();
    const comparison = page.getByRole("dialog", { name: "Before and after" });
    await comparison.getByRole("slider").waitFor();
    await expectWithinViewportWidth(comparison.getByTestId("before-after"), "the comparison");
    await session.page.waitForTimeout(300);
    await session.screenshot("phone-playground-compare", { fullPage: false });
    await comparison.getByRole("button", { name: "Close", exact: true }).click();
    await comparison.waitFor({ state: "hidden" });

    await openPage(page, "/settings/profile", "Profile Settings");
    await checkAndShoot(session, "settings-profile");

    await page.goto("/no/such/page");
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
    await checkAndShoot(session, "not-found-signed-in");
  });
});

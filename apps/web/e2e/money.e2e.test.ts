import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectAccessible } from "./axe";
import { type BrowserSession, openBrowser, SCREENSHOT_DIR } from "./browser";
import { uniqueEmail, waitForCode } from "./mailbox";

const PASSWORD = "Sup3r-secret!";

/**
 * A signed-in owner of a fresh organization: the account is created and confirmed through the API
 * with the page's own request context, so the session cookie lands in the browser.
 */
async function signInNewOwner(page: Page, baseUrl: string, label: string): Promise<string> {
  const email = uniqueEmail(label);
  const headers = { origin: baseUrl };
  const created = await page.request.post(`${baseUrl}/v1/users/create`, {
    data: { firstName: "Mia", lastName: "Money", email, password: PASSWORD },
    headers,
  });
  expect(created.ok(), await created.text()).toBe(true);
  const verificationCode = await waitForCode(baseUrl, email);
  const confirmed = await page.request.post(`${baseUrl}/v1/users/confirm`, {
    data: { email, verificationCode },
    headers,
  });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
  return email;
}

async function skipWelcome(page: Page) {
  await page.goto("/terms");
  await page.evaluate(() => localStorage.setItem("welcomePopupSeen", "true"));
}

async function fillCard(page: Page, number: string) {
  const dialog = page.getByRole("dialog", { name: /Add Payment Method/ });
  await dialog.getByLabel("Card number").fill(number);
  await dialog.getByLabel("Expiry date").fill("12 / 34");
  await dialog.getByLabel("Security code").fill("123");
  return dialog;
}

/**
 * How Home's statistics call ended: answered, or failed in the browser (its 5 s budget, spec). Home asks
 * for them as the welcome dialog opens.
 */
function statisticsAnswer(page: Page): Promise<"answered" | "failed"> {
  const isStatistics = (request: Request) => request.url().endsWith("/v1/users/statistics/get");
  // The first of these to come; the others time out later, handled (Promise.any).
  return Promise.any([
    page.waitForEvent("requestfinished", { predicate: isStatistics }).then(() => "answered" as const),
    page.waitForEvent("requestfailed", { predicate: isStatistics }).then(() => "failed" as const),
    page
      .getByRole("dialog", { name: "Error retrieving statistics" })
      .waitFor()
      .then(() => "failed" as const),
  ]);
}

/**
 * A server that has just started, on a CI machine running three journeys and the image check on two
 * cores, can miss the statistics call's 5 s budget (spec); Home then shows "Error retrieving
 * statistics" (home-page.test.tsx), and Mantine shows that dialog in the welcome dialog's place until
 * it is closed. This journey is about the welcome dialog: close that one if it came, and the welcome
 * dialog is back. A statistics call that fails on the server (an HTTP error) is not excused.
 */
async function closeStatisticsTimeout(page: Page, statistics: "answered" | "failed"): Promise<void> {
  if (statistics !== "failed") return;
  const dialog = page.getByRole("dialog", { name: "Error retrieving statistics" });
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await dialog.waitFor({ state: "detached" });
}

describe("money", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  beforeEach(async () => {
    await session.context.clearCookies();
    await session.page.goto("/terms");
    await session.page.evaluate(() => localStorage.clear());
  });

  afterAll(async () => {
    await session?.close();
  });

  it("adds the 4242 card, recharges $20, shows $20.00 in the top bar and an invoice whose link opens a PDF", async () => {
    const { page, baseUrl, context } = session;
    await signInNewOwner(page, baseUrl, "recharge");

    // A user created today with a zero balance meets the welcome dialog once; its button leads to the
    // payments page with the card dialog already open (issue 33: it used to land without it).
    const statisticsSettled = statisticsAnswer(page);
    await page.goto("/home");
    const welcome = page.getByRole("heading", { name: "Welcome to Prism!" });
    await welcome.waitFor();
    await closeStatisticsTimeout(page, await statisticsSettled);
    await session.screenshot("money-01-welcome-popup");
    await expectAccessible(page, "the welcome popup");
    await page.getByRole("button", { name: "Add a Payment Method", exact: true }).click();
    await page.waitForURL("**/organization/payments");
    const dialog = page.getByRole("dialog", { name: /Add Payment Method/ });
    await dialog.getByLabel("Card number").waitFor();

    await page.getByText("Sandbox: no real charges").first().waitFor();
    await page.getByText("No payment method yet").waitFor();
    const disabledButtons = page.getByRole("button", { name: "Please add a Payment Method first" });
    expect(await disabledButtons.count()).toBe(2);
    for (const button of await disabledButtons.all()) expect(await button.isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId("balance").textContent()).toBe("$0.00");
    await session.screenshot("money-02-payments-no-card");

    await fillCard(page, "4242 4242 4242 4242");
    await dialog.locator('svg[data-brand="visa"]').waitFor();
    await session.screenshot("money-03-add-card-form");
    await expectAccessible(page, "the card dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    // The organization's first card: the dialog asks who its invoices are addressed to.
    const billing = page.getByRole("dialog", { name: "Billing Details" });
    await billing.getByText("Without billing details, invoices of", { exact: false }).waitFor();
    await billing.getByLabel("Billing Name").fill("Mia Money Ltd");
    await billing.getByLabel("Billing Address").fill("1 Coin Street");
    await billing.getByLabel("City").fill("London");
    await billing.getByLabel("State/Province").fill("London");
    await billing.getByLabel("ZIP/Postal Code").fill("SE1 9NH");
    // Typing the country and pressing Enter picks it (issue 33: Enter used to submit and clear it).
    await billing.getByPlaceholder("Select country").click();
    await page.keyboard.type("United Kingdom");
    await page.keyboard.press("Enter");
    await expect.poll(() => billing.getByPlaceholder("Select country").inputValue()).toBe("United Kingdom");
    await billing.getByLabel("Billing Email").fill("accounts@mia.example");
    await session.screenshot("money-03b-billing-details-step");
    await billing.getByRole("button", { name: "Save" }).click();
    await billing.waitFor({ state: "hidden" });
    await page.getByText("Visa •••• 4242").waitFor();
    await page.locator('[data-testid="saved-card"] svg[data-brand="visa"]').waitFor();
    await session.screenshot("money-04-card-saved");

    // An amount below $20 is raised to $20 on leaving the field, and the field says so.
    const amount = page.getByRole("region", { name: "Recharge Now" }).getByLabel("Amount");
    await amount.fill("5");
    await amount.blur();
    expect(await amount.inputValue()).toBe("$20");
    await page
      .getByRole("region", { name: "Recharge Now" })
      .getByText("Raised to the $20 minimum.")
      .waitFor();
    await page.getByRole("button", { name: "Recharge Now" }).click();
    await page.getByText("Are you sure you want to recharge $20?").waitFor();
    await page.waitForTimeout(400);
    await session.screenshot("money-05-recharge-confirm");
    await page.getByRole("button", { name: "Yes", exact: true }).click();

    const success = page.getByText("Recharge Successful!");
    await success.waitFor({ timeout: 15_000 });
    await session.screenshot("money-06-recharge-successful");
    await expect.poll(() => page.getByTestId("balance").textContent()).toBe("$20.00");
    await expect.poll(() => page.getByTestId("recharge-panel-balance").textContent()).toBe("$20.00");
    // The toast leaves after 3 seconds and uncovers the top bar's balance.
    await success.waitFor({ state: "hidden" });
    await session.screenshot("money-07-balance-updated");

    await page.getByRole("link", { name: "Invoices" }).click();
    await page.waitForURL("**/organization/invoices");
    const row = page.getByTestId("invoice-row").first();
    await row.waitFor();
    expect(await page.getByTestId("invoice-row").count()).toBe(1);
    const rowText = (await row.textContent()) ?? "";
    expect(rowText).toMatch(/INV-\d+/);
    expect(rowText).toContain("Paid");
    expect(rowText).toContain("$20.00");
    await session.screenshot("money-08-invoices");

    const pdfResponse = context.waitForEvent("response", {
      predicate: (response) => /\/pdf(\?|$)/.test(response.url()),
    });
    await row.getByRole("button", { name: /^View invoice / }).click();
    const pdf = await pdfResponse;
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    // The link opened once in the new tab; the same link again is refused, and a tab shows why.
    expect((await page.request.get(pdf.url())).status()).toBe(404);
    for (const opened of context.pages()) if (opened !== page) await opened.close();
    const again = await context.newPage();
    await again.goto(pdf.url());
    await again.getByRole("heading", { name: "This invoice link has expired" }).waitFor();
    await again.screenshot({ path: `${SCREENSHOT_DIR}/money-08c-invoice-link-expired.png`, fullPage: true });
    await again.getByRole("link", { name: "Open your invoices" }).click();
    await again.waitForURL("**/organization/invoices");
    await again.close();

    // Auto recharge: turning it on starts from $20 / $100; the saved settings survive a reload.
    await page.goto("/organization/payments");
    const autoRecharge = page.getByRole("region", { name: "Auto Recharge" });
    await autoRecharge.getByLabel("Enable auto recharge").check();
    expect(await autoRecharge.getByLabel("Threshold").inputValue()).toBe("$20");
    expect(await autoRecharge.getByLabel("Amount").inputValue()).toBe("$100");
    // The $20 minimum that leaving a field enforces is written beside each amount.
    for (const field of [
      autoRecharge.getByLabel("Threshold"),
      autoRecharge.getByLabel("Amount"),
      page.getByRole("region", { name: "Recharge Now" }).getByLabel("Amount"),
    ]) {
      const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
      const description = await page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent();
      expect(description).toContain("Minimum $20");
    }
    await session.screenshot("money-08b-auto-recharge-minimum");
    await autoRecharge.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes have been saved!").waitFor();
    await page.reload();
    await autoRecharge.getByLabel("Enable auto recharge").waitFor();
    expect(await autoRecharge.getByLabel("Enable auto recharge").isChecked()).toBe(true);
    expect(await autoRecharge.getByLabel("Amount").inputValue()).toBe("$100");
    await session.screenshot("money-09-auto-recharge-saved");

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("button", { name: "Yes, proceed" }).click();
    await page.getByText("No payment method yet").waitFor();
  });

  it("says the decline of 4000000000000002 in the card form, with no second dialog, and keeps no card", async () => {
    const { page, baseUrl } = session;
    await skipWelcome(page);
    await signInNewOwner(page, baseUrl, "decline");

    // The home page's empty Payment Method card offers Add, which opens the add-card form there.
    await page.goto("/home");
    const homeCard = page.getByRole("region", { name: "Payment Method" });
    await homeCard.getByText("No payment method yet").waitFor();
    await homeCard.getByRole("button", { name: "Add", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Add Payment Method/ })
      .getByLabel("Card number")
      .waitFor();
    await page.waitForTimeout(400);
    await session.screenshot("money-09b-home-add-card");
    await page
      .getByRole("dialog", { name: /Add Payment Method/ })
      .getByRole("button", { name: "Cancel" })
      .click();
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await homeCard.getByRole("button", { name: "Add", exact: true }).waitFor();
      await session.screenshot("money-09c-home-add-card-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    await page.goto("/organization/payments");
    await page.getByRole("button", { name: "Add a Payment Method", exact: true }).click();
    const dialog = await fillCard(page, "4000000000000002");
    await dialog.getByRole("button", { name: "Save" }).click();

    // The decline is said in the card form, in the provider's words; no second dialog comes over it.
    await dialog.getByText("Your card was declined.").waitFor();
    await page.waitForTimeout(600);
    expect(await page.getByRole("dialog", { name: "Payment Method Update Failed" }).count()).toBe(0);
    await session.screenshot("money-10-card-declined");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("No payment method yet").waitFor();

    await page.goto("/organization/invoices");
    await page
      .getByText(
        "You don't have any invoices yet. Your billing history will appear here once invoices are generated.",
      )
      .waitFor();
    await session.screenshot("money-11-invoices-empty");

    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto("/organization/payments");
      await page.getByText("No payment method yet").waitFor();
      await session.screenshot("money-11b-payments-mobile");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it("marks a missing billing field beside it before sending, then saves the billing details", async () => {
    const { page, baseUrl } = session;
    await skipWelcome(page);
    await signInNewOwner(page, baseUrl, "billing");

    await page.goto("/organization/billing");
    await page.getByLabel("Billing Name").fill("Acme Inc.");
    await page.getByLabel("Billing Address").fill("1 Infinite Loop");
    await page.getByLabel("State/Province").fill("CA");
    await page.getByLabel("ZIP/Postal Code").fill("95014");
    await page.getByPlaceholder("Select country").fill("United St");
    await page.getByRole("option", { name: "United States" }).click();
    await page.getByLabel("Billing Email").fill("billing@acme.example");

    // A missing field is marked beside it before anything is sent; no dialog.
    let sent = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/v1/users/organizations/update-billing")) sent += 1;
    });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("City is required.").waitFor();
    expect(await page.getByLabel("City").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(sent).toBe(0);
    await session.screenshot("money-12-billing-missing-city");
    await expectAccessible(page, "the billing form with a missing field");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByLabel("City").scrollIntoViewIfNeeded();
      await session.screenshot("money-12b-billing-missing-city-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    // The save is held back a moment to look at the loading overlay: the spec's particle effect.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/v1/users/organizations/update-billing", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel("City").fill("Cupertino");
    await page.getByRole("button", { name: "Save" }).click();
    const particles = page.locator("[data-particle]");
    await expect.poll(() => particles.count()).toBe(100);
    expect(await particles.first().evaluate((particle) => getComputedStyle(particle).animationName)).not.toBe(
      "none",
    );
    await page.waitForTimeout(300);
    await session.screenshot("money-11c-loading-particles");
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await particles.first().evaluate((particle) => getComputedStyle(particle).animationName)).toBe(
      "none",
    );
    await page.emulateMedia({ reducedMotion: "no-preference" });
    const answered = page.waitForResponse((response) =>
      response.url().endsWith("/v1/users/organizations/update-billing"),
    );
    release();
    await answered;
    await page.unroute("**/v1/users/organizations/update-billing");
    await page.getByText("Changes have been saved!").waitFor();
    await session.screenshot("money-13-billing-saved");

    await page.reload();
    expect(await page.getByLabel("City").inputValue()).toBe("Cupertino");
    expect(await page.getByPlaceholder("Select country").inputValue()).toBe("United States");
  });
});

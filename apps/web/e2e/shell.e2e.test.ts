import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { signUpOwner } from "./funded-owner";

const scrollTop = (page: Page) => page.evaluate(() => window.scrollY);

/** Scrolls the page to its end and returns where it stopped (the console's document is what scrolls). */
async function scrollToEnd(page: Page): Promise<number> {
  const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(scrollable, "the page must be taller than the viewport for this check").toBeGreaterThan(150);
  // The page may still grow while its data and charts arrive: scroll until the end stays put.
  let previous = -1;
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const now = await scrollTop(page);
        const settled = now === previous && now > 150;
        previous = now;
        return settled;
      },
      { interval: 300 },
    )
    .toBe(true);
  return scrollTop(page);
}

describe("console shell", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("sends a visitor on / to /login", async () => {
    const { page } = session;
    await page.goto("/");
    await page.waitForURL("**/login");
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await session.screenshot("shell-login");
  });

  it("shows Not Found on an unknown path", async () => {
    const { page } = session;
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/no/such/page");
    await session.screenshot("shell-not-found");
  });

  it("opens every new page at the top and restores each history entry's scroll on back and forward", async () => {
    const { page, baseUrl } = session;
    await signUpOwner(page, baseUrl, { firstName: "Sol", lastName: "Scroll", label: "scroll" });
    await skipWelcomePopup(page);

    // Desktop, a short window: the payments page scrolls; the sidebar's Home leads elsewhere.
    await page.setViewportSize({ width: 1440, height: 600 });
    try {
      await page.goto("/organization/payments");
      await page.getByRole("region", { name: "Recharge Now" }).waitFor();
      const paymentsScroll = await scrollToEnd(page);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
      await page.waitForURL("**/home");
      await page.getByRole("region", { name: "Payment Method" }).waitFor();
      await expect.poll(() => scrollTop(page)).toBe(0);
      await session.screenshot("shell-01-new-page-at-top");

      await page.goBack();
      await page.waitForURL("**/organization/payments");
      await expect.poll(() => scrollTop(page)).toBe(paymentsScroll);
      await page.goForward();
      await page.waitForURL("**/home");
      await expect.poll(() => scrollTop(page)).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    // Phone: the home page's Auto Recharge link at the bottom opens the payments page at its top.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto("/home");
      await page.getByRole("region", { name: "Payment Method" }).waitFor();
      const homeScroll = await scrollToEnd(page);
      await page.getByRole("link", { name: "Auto Recharge settings" }).click();
      await page.waitForURL("**/organization/payments");
      await page.getByRole("heading", { name: "Payments", exact: true }).waitFor();
      await expect.poll(() => scrollTop(page)).toBe(0);
      await session.screenshot("shell-02-new-page-at-top-phone");
      await page.goBack();
      await page.waitForURL("**/home");
      await expect.poll(() => scrollTop(page)).toBe(homeScroll);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    // One route serves every playground screen; a path that names no feature is Not Found in the shell.
    await page.goto("/playground/no-such-feature");
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
    await page.goto("/playground/image-background-removal");
    await page.getByRole("heading", { name: "Background Removal" }).waitFor();
  });
});

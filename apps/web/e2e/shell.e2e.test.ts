import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";

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
});

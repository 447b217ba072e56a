import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { keyFeatureNotAllowedText } from "@prism/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { signUpFundedOwner } from "./funded-owner";
import { expectTextNotClipped } from "./layout";

/** A feature call with an API key, as a contractor's script makes it (not the browser's session). */
async function callWithKey(baseUrl: string, apiKey: string, endpoint: string, form: FormData) {
  const response = await fetch(`${baseUrl}${endpoint}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("API keys with limits end to end", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("creates a key that can only remove backgrounds under a monthly cap, and sees its spend", async () => {
    const { page, baseUrl } = session;
    await signUpFundedOwner(page, baseUrl, { firstName: "Lea", lastName: "Lead", label: "limited-key" });
    await skipWelcomePopup(page);

    await page.goto("/projects/api-keys");
    await page.getByRole("button", { name: "Create New" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New API Key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Contractor");
    await dialog.getByLabel("All features").uncheck();
    await dialog.getByRole("combobox", { name: "Features" }).click();
    await page.getByRole("option", { name: "Background Removal" }).click();
    await dialog.getByLabel("Monthly spend cap (USD)").fill("20");
    await dialog.getByLabel("Requests per minute").fill("30");
    await session.screenshot("api-keys-01-limited-key-dialog");
    await dialog.getByRole("button", { name: "Create" }).click();
    const content = await page.getByTestId("api-key-content").inputValue();
    expect(content).toMatch(/^psk_/);
    await page.getByRole("button", { name: "Done" }).click();

    const row = page.getByTestId("api-key-row").filter({ hasText: "Background Removal" });
    await row.getByText("$20.00/month").waitFor();
    await row.getByText("30/min").waitFor();
    expect(await row.getByTestId("api-key-spend").textContent()).toBe("$0.00 of $20.00");

    // A photo with a subject: the builtin engine refuses, uncharged, a picture with nothing to cut out.
    const png = await sharp(
      readFileSync(resolve(import.meta.dirname, "../../../fixtures/images/astronaut.png")),
    )
      .resize(96)
      .png()
      .toBuffer();
    const image = new FormData();
    image.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
    const allowed = await callWithKey(baseUrl, content, "/v1/images/background-removal", image);
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);

    const prompt = new FormData();
    prompt.append("prompt", "a lighthouse at dusk");
    const forbidden = await callWithKey(baseUrl, content, "/v1/images/generation", prompt);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({
      error: "key-feature-not-allowed",
      message: keyFeatureNotAllowedText("Image Generation"),
    });

    await page.reload();
    await expect
      .poll(() => row.getByTestId("api-key-spend").textContent())
      .toMatch(/^\$0\.0[1-9] of \$20\.00$/);
    await session.screenshot("api-keys-02-table-with-spend");

    // At 1440 px every limit reads whole, headers keep to one line, and Delete holds only Delete.
    for (const badge of await row.getByTestId("api-key-limits").locator(".mantine-Badge-root").all()) {
      await expectTextNotClipped(badge, `the limit "${await badge.innerText()}"`);
    }
    for (const header of await page.getByRole("table", { name: "API keys" }).locator("th").all()) {
      // The lines the header's words take: one top per line box of its text.
      const lines = await header.evaluate((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect.soft(lines, `the header "${await header.innerText()}" wraps`).toBeLessThanOrEqual(1);
    }
    expect(await row.locator("td").last().getByRole("button").count()).toBe(1);

    await row.getByRole("button", { name: "Details of Contractor" }).click();
    const drawer = page.getByRole("dialog", { name: "API Key Contractor" });
    const calls = drawer.getByRole("table", { name: "Recent calls" });
    await calls.getByText("Background Removal").waitFor();
    expect(await calls.locator("tbody tr").count()).toBe(1);
    await session.screenshot("api-keys-03-detail-drawer");
  });
});

import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { post, signUpFundedOwner } from "./funded-owner";

const EMPTY_HISTORY = "You haven't used this section yet. Start now using the options in the left panel!";

// ---------------------------------------------------------------------------------------------------
// Test images drawn with sharp.
// ---------------------------------------------------------------------------------------------------

/** A light page with black bars shaped like lines of words, for text removal. */
async function textLikePng(width = 480, height = 320): Promise<Buffer> {
  const words: { left: number; top: number; width: number; height: number }[] = [];
  for (let line = 0; line < 5; line += 1) {
    let left = 32;
    while (left < width - 80) {
      const wordWidth = 24 + ((line * 37 + left) % 60);
      words.push({ left, top: 40 + line * 52, width: wordWidth, height: 22 });
      left += wordWidth + 14;
    }
  }
  const rectangles = words
    .map(
      (word) =>
        `<rect x="${word.left}" y="${word.top}" width="${word.width}" height="${word.height}" fill="#111"/>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rectangles}</svg>`;
  return sharp({ create: { width, height, channels: 3, background: { r: 244, g: 241, b: 232 } } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
}

/** A small picture: a coloured disc on a gradient-free light background. */
async function smallPng(width = 320, height = 240): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#c8283c"/></svg>`;
  return sharp({ create: { width, height, channels: 3, background: { r: 225, g: 235, b: 245 } } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------------
// Account set-up through the API, with the page's own cookies.
// ---------------------------------------------------------------------------------------------------

interface FeatureStatus {
  endpoint: string;
  available: boolean;
  reason: string | null;
}

/** The body the server stored for the newest history item of an endpoint. */
async function lastStoredBody(
  page: Page,
  baseUrl: string,
  endpoint: string,
): Promise<Record<string, unknown>> {
  const { requests } = await post<{ requests: { request_data: { body: Record<string, unknown> } }[] }>(
    page,
    baseUrl,
    "/v1/users/playground/get-requests",
    { endpoint, projectId, offset: 0 },
  );
  return requests[0]?.request_data.body ?? {};
}

async function featureStatus(
  page: Page,
  baseUrl: string,
  endpoint: string,
): Promise<FeatureStatus | undefined> {
  const { features } = await post<{ features: FeatureStatus[] }>(
    page,
    baseUrl,
    "/v1/users/playground/feature-status",
  );
  return features.find((feature) => feature.endpoint === endpoint);
}

/** Waits for the finished row, checks its two pictures, then deletes it through the confirmation. */
async function expectResultThenDelete(
  session: BrowserSession,
  screenshot: string,
  checkStored: () => Promise<void>,
) {
  const { page } = session;
  const failed = page.locator('[data-testid=history-row][data-status="error"]');
  const done = page.locator('[data-testid=history-row][data-status="done"]');
  await done.or(failed).first().waitFor({ timeout: 90_000 });
  expect(await failed.count(), "the row ended in Generation Error").toBe(0);
  await checkStored();
  expect(await page.locator("[data-testid=history-row]").count()).toBe(1);
  await done.getByRole("img", { name: "Original" }).waitFor();
  const result = done.getByRole("img", { name: "Result" });
  await expect
    .poll(() => result.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await session.screenshot(screenshot);

  await done.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Image" });
  await confirm.waitFor();
  await confirm.getByRole("button", { name: "Yes, proceed" }).click();
  await confirm.waitFor({ state: "hidden" });
  await expect.poll(() => page.locator("[data-testid=history-row]").count()).toBe(0);
  await page.getByText(EMPTY_HISTORY).waitFor();
}

let projectId = "";

describe("playground: text removal and image extension", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
    const { page, baseUrl } = session;
    ({ projectId } = await signUpFundedOwner(page, baseUrl, {
      firstName: "Eda",
      lastName: "Editor",
      label: "editing",
    }));
    await page.goto("/terms");
    await page.evaluate(() => localStorage.setItem("welcomePopupSeen", "true"));
  });

  afterAll(async () => {
    await session?.close();
  });

  it("removes the text from an image, then deletes the row", async () => {
    const { page, baseUrl } = session;
    const status = await featureStatus(page, baseUrl, "/v1/images/text-removal");
    expect(status).toBeDefined();

    await page.goto("/playground/text-removal");
    await page.getByRole("heading", { name: "Text Removal" }).waitFor();
    await page
      .getByText("Select your image and click on Remove Texts to eliminate all text from it.")
      .waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    // The test server is not production: the fast mode control is offered.
    const fastMode = page.getByRole("checkbox", { name: "Use Fast Mode" });
    await fastMode.waitFor();
    expect(await page.getByTestId("price-line").textContent()).toMatch(/^\$\d+\.\d{3} will be charged$/);
    const action = page.getByRole("button", { name: "Remove Texts" });
    expect(await action.isDisabled()).toBe(true);

    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: await textLikePng() });
    await page.getByRole("img", { name: /Original Image: poster\.png/ }).waitFor();

    if (!status?.available) {
      console.warn(`text removal unavailable in the test server: ${status?.reason}`);
      await page.getByTestId("feature-unavailable").waitFor();
      expect(await action.isDisabled()).toBe(true);
      await session.screenshot("playground-editing-01-text-removal-unavailable");
      return;
    }

    expect(await action.isDisabled()).toBe(false);
    await fastMode.check();
    await session.screenshot("playground-editing-01-text-removal-ready");
    await action.click();
    await expectResultThenDelete(session, "playground-editing-02-text-removal-result", async () => {
      expect(await lastStoredBody(page, baseUrl, "/v1/images/text-removal")).toMatchObject({
        fast_mode: true,
      });
    });
  });

  it("extends an image within the 4096 px bounds, then deletes the row", async () => {
    const { page, baseUrl } = session;
    const status = await featureStatus(page, baseUrl, "/v1/images/extension");
    expect(status).toBeDefined();

    await page.goto("/playground/image-extension");
    await page.getByRole("heading", { name: "Image Extension" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const action = page.getByRole("button", { name: "Extend Image" });
    expect(await action.isDisabled()).toBe(true);
    expect(await page.getByTestId("price-line").textContent()).toMatch(/^\$\d+\.\d{3} will be charged$/);

    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "scene.png", mimeType: "image/png", buffer: await smallPng(320, 240) });
    await page.getByRole("img", { name: /Original Image: scene\.png/ }).waitFor();
    await page.getByTestId("extension-size").waitFor();

    const top = page.getByRole("slider", { name: "Extend Top" });
    const bottom = page.getByRole("slider", { name: "Extend Bottom" });
    const right = page.getByRole("slider", { name: "Extend Right" });
    // Ranges follow the image: 4096 − 240 vertically, 4096 − 320 horizontally.
    await expect.poll(() => top.getAttribute("aria-valuemax")).toBe("3856");
    expect(await right.getAttribute("aria-valuemax")).toBe("3776");
    // All four at zero: nothing to extend yet.
    expect(await action.isDisabled()).toBe(true);

    // Moving one side reduces the opposite one so the height stays within 4096.
    await page.getByRole("textbox", { name: "Extend Top (px)" }).fill("3800");
    await expect.poll(() => top.getAttribute("aria-valuenow")).toBe("3800");
    await page.getByRole("textbox", { name: "Extend Bottom (px)" }).fill("100");
    await expect.poll(() => bottom.getAttribute("aria-valuenow")).toBe("100");
    expect(await top.getAttribute("aria-valuenow")).toBe("3756");

    // Back to a modest extension for the real call.
    await page.getByRole("textbox", { name: "Extend Top (px)" }).fill("16");
    await page.getByRole("textbox", { name: "Extend Bottom (px)" }).fill("0");
    await page.getByRole("textbox", { name: "Extend Right (px)" }).fill("32");
    await expect.poll(() => right.getAttribute("aria-valuenow")).toBe("32");
    expect(await page.getByTestId("extension-size").textContent()).toContain("352 × 256 px");

    if (!status?.available) {
      console.warn(`image extension unavailable in the test server: ${status?.reason}`);
      await page.getByTestId("feature-unavailable").waitFor();
      expect(await action.isDisabled()).toBe(true);
      await session.screenshot("playground-editing-03-extension-unavailable");
      return;
    }

    expect(await action.isDisabled()).toBe(false);
    await session.screenshot("playground-editing-03-extension-ready");
    await action.click();
    await expectResultThenDelete(session, "playground-editing-04-extension-result", async () => {
      expect(await lastStoredBody(page, baseUrl, "/v1/images/extension")).toMatchObject({
        top: 16,
        bottom: 0,
        left: 0,
        right: 32,
      });
    });
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import {
  CHARGED_PRICE_LINE,
  deleteOnlyRow,
  EMPTY_HISTORY,
  expectFeatureUnavailable,
  expectImageLoaded,
  featureStatus,
  historyRows,
  lastStoredBody,
  openFundedPlayground,
} from "./playground-helpers";

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

/** Waits for the finished row, checks its two pictures, then deletes it through the confirmation. */
async function expectResultThenDelete(
  session: BrowserSession,
  screenshot: string,
  checkStored: () => Promise<void>,
) {
  const { page } = session;
  const failed = historyRows(page, "error");
  const done = historyRows(page, "done");
  await done.or(failed).first().waitFor({ timeout: 90_000 });
  expect(await failed.count(), "the row ended in Generation Error").toBe(0);
  await checkStored();
  expect(await historyRows(page).count()).toBe(1);
  await done.getByRole("img", { name: "Original" }).waitFor();
  await expectImageLoaded(done.getByRole("img", { name: "Result" }));
  await page.evaluate(() => window.scrollTo(0, 0));
  await session.screenshot(screenshot);

  await deleteOnlyRow(page);
}

describe("playground: text removal and image extension", () => {
  let session: BrowserSession;
  let projectId = "";

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Eda",
      lastName: "Editor",
      label: "editing",
    }));
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
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);
    const action = page.getByRole("button", { name: "Remove Texts" });
    expect(await action.isDisabled()).toBe(true);

    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: await textLikePng() });
    await page.getByRole("img", { name: /Original Image: poster\.png/ }).waitFor();

    if (!status?.available) {
      await expectFeatureUnavailable(
        session,
        action,
        "text removal",
        status,
        "playground-editing-01-text-removal-unavailable",
      );
      return;
    }

    expect(await action.isDisabled()).toBe(false);
    await fastMode.check();
    await session.screenshot("playground-editing-01-text-removal-ready");
    await action.click();
    await expectResultThenDelete(session, "playground-editing-02-text-removal-result", async () => {
      expect(await lastStoredBody(page, baseUrl, projectId, "/v1/images/text-removal")).toMatchObject({
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
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);

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
      await expectFeatureUnavailable(
        session,
        action,
        "image extension",
        status,
        "playground-editing-03-extension-unavailable",
      );
      return;
    }

    expect(await action.isDisabled()).toBe(false);
    await session.screenshot("playground-editing-03-extension-ready");
    await action.click();
    await expectResultThenDelete(session, "playground-editing-04-extension-result", async () => {
      expect(await lastStoredBody(page, baseUrl, projectId, "/v1/images/extension")).toMatchObject({
        top: 16,
        bottom: 0,
        left: 0,
        right: 32,
      });
    });
  });
});

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { openMaskPopup, paintedShare, stroke } from "./mask-drawing";
import { failNextModelCall, lastModelCall } from "./model-server-control";
import {
  CHARGED_PRICE_LINE,
  closeDialog,
  deleteOnlyRow,
  EMPTY_HISTORY,
  expectImageLoaded,
  historyRows,
  openFundedPlayground,
  storedFile,
  storedRequests,
  waitForDialog,
} from "./playground-helpers";

const ERROR_REMOVING_OBJECT = "Error Removing Object";

const fixture = (name: string) =>
  readFileSync(resolve(import.meta.dirname, "../../../fixtures/images", name));
/** 600 × 400: a cup of coffee with a spoon leaning on the saucer at the right. */
const COFFEE = { name: "coffee.png", mimeType: "image/png", buffer: fixture("coffee.png") };
/** 451 × 300: a cat. */
const CHELSEA = { name: "chelsea.png", mimeType: "image/png", buffer: fixture("chelsea.png") };

let projectId = "";

/** Size and white share (brighter than mid-grey) of a stored image. */
async function measureStored(page: Page, baseUrl: string, url: string) {
  const { data, info } = await sharp(await storedFile(page, baseUrl, url))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let white = 0;
  for (let index = 0; index < data.length; index += info.channels) if ((data[index] ?? 0) > 127) white += 1;
  return { width: info.width, height: info.height, whiteShare: white / (info.width * info.height) };
}

async function setSlider(slider: Locator, key: "Home" | "End" | "ArrowLeft" | "ArrowRight", times = 1) {
  await slider.focus();
  for (let index = 0; index < times; index += 1) await slider.press(key);
}

/** The percentage the mask field shows next to "Mask drawn", as a share. */
async function shownCoverage(page: Page): Promise<number> {
  const text = (await page.getByTestId("mask-coverage").textContent()) ?? "";
  const match = /(\d+)%/.exec(text);
  if (!match?.[1]) throw new Error(`no coverage in "${text}"`);
  return Number(match[1]) / 100;
}

async function waitForRow(page: Page) {
  const row = historyRows(page).first();
  await page
    .locator('[data-testid=history-row][data-status="done"], [data-testid=history-row][data-status="error"]')
    .first()
    .waitFor({ timeout: 120_000 });
  return row;
}

describe("playground: object removal, generative fill and reimagine", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Mara",
      lastName: "Masker",
      label: "masks",
    }));
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it("removes a masked object on the builtin engine, then deletes the row", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/object-removal");
    await page.getByRole("heading", { name: "Object Removal" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);

    // Without an image neither the mask tool nor the action is available.
    const action = page.getByRole("button", { name: "Remove Object" });
    const maskButton = page.getByRole("button", { name: "Select Object to Remove" });
    expect(await action.isDisabled()).toBe(true);
    expect(await maskButton.isDisabled()).toBe(true);
    expect(await page.getByTestId("mask-state").textContent()).toBe("Upload an image to draw a mask.");

    await page.locator("input[type=file]").setInputFiles(COFFEE);
    await page.getByRole("img", { name: /Original Image: coffee\.png/ }).waitFor();
    await expect.poll(() => maskButton.isDisabled()).toBe(false);
    expect(await action.isDisabled()).toBe(false);
    await page.getByText("No mask drawn yet.").waitFor();
    await session.screenshot("playground-masks-01-object-removal-ready");

    // The server cannot remove anything without a mask: the click explains instead of calling.
    await action.click();
    const noMask = await waitForDialog(page, "No Mask Drawn", { message: /Select Object to Remove/ });
    await closeDialog(noMask);
    expect(await historyRows(page).count()).toBe(0);

    // The popup: draw, erase, both sliders, Clear, then the real mask over the spoon and I'm Done.
    const { popup, canvas } = await openMaskPopup(page, "Select Object to Remove");
    for (const label of ["Draw", "Erase", "Clear", "I'm Done"]) {
      await popup.getByText(label, { exact: true }).first().waitFor();
    }
    const shapeSize = popup.getByRole("slider", { name: "Shape Size" });
    const opacity = popup.getByRole("slider", { name: "Opacity" });
    expect(await shapeSize.getAttribute("aria-valuenow")).toBe("30");
    expect(await opacity.getAttribute("aria-valuenow")).toBe("0.8");
    expect(await paintedShare(canvas)).toBe(0);

    await stroke(page, canvas, 600, [
      [100, 100],
      [300, 100],
    ]);
    const afterDraw = await paintedShare(canvas);
    expect(afterDraw).toBeGreaterThan(0.01);
    await popup.getByText("Erase", { exact: true }).click();
    await stroke(page, canvas, 600, [
      [180, 60],
      [220, 140],
    ]);
    const afterErase = await paintedShare(canvas);
    expect(afterErase).toBeLessThan(afterDraw);
    expect(afterErase).toBeGreaterThan(0);
    await popup.getByRole("button", { name: "Clear" }).click();
    expect(await paintedShare(canvas)).toBe(0);

    await popup.getByText("Draw", { exact: true }).click();
    await setSlider(shapeSize, "ArrowLeft", 12);
    expect(await shapeSize.getAttribute("aria-valuenow")).toBe("18");
    expect(await popup.getByTestId("shape-size-value").textContent()).toBe("18px");
    await setSlider(opacity, "ArrowLeft", 4);
    expect(await opacity.getAttribute("aria-valuenow")).toBe("0.6");
    expect(await popup.getByTestId("opacity-value").textContent()).toBe("0.60");
    expect(await canvas.evaluate((element) => getComputedStyle(element).opacity)).toBe("0.6");
    // Back to the default brush, along the spoon's handle and over its bowl.
    await setSlider(shapeSize, "ArrowRight", 12);
    expect(await popup.getByTestId("shape-size-value").textContent()).toBe("30px");
    await stroke(page, canvas, 600, [
      [414, 72],
      [402, 150],
      [388, 225],
    ]);
    for (const y of [250, 275, 300, 320]) {
      await stroke(page, canvas, 600, [
        [338, y],
        [402, y],
      ]);
    }
    expect(await paintedShare(canvas)).toBeGreaterThan(0.01);
    await page.mouse.move(700, 450);
    await session.screenshot("playground-masks-02-mask-popup");
    await popup.getByRole("button", { name: "I'm Done" }).click();
    await popup.waitFor({ state: "hidden" });
    await page.getByText("Mask drawn").waitFor();
    const coverage = await shownCoverage(page);
    expect(coverage).toBeGreaterThan(0);

    await action.click();
    const row = await waitForRow(page);
    expect(await row.getAttribute("data-status")).toBe("done");
    await row.getByRole("img", { name: "Original" }).waitFor();
    await row.getByRole("img", { name: "Mask overlay" }).waitFor();
    const result = row.getByRole("img", { name: "Result" });
    await expectImageLoaded(result);

    // The server stored the image and an opaque black/white mask of the same size.
    const [stored] = await storedRequests(page, baseUrl, projectId, "/v1/images/object-removal");
    const maskUrl = stored?.request_data.files.mask?.[0];
    const imageUrl = stored?.request_data.files.image?.[0];
    expect(maskUrl && imageUrl && stored?.response_data.file).toBeTruthy();
    const mask = await measureStored(page, baseUrl, maskUrl ?? "");
    expect(mask).toMatchObject({ width: 600, height: 400 });
    expect(Math.abs(mask.whiteShare - coverage)).toBeLessThan(0.011);
    const output = await measureStored(page, baseUrl, stored?.response_data.file ?? "");
    expect(output).toMatchObject({ width: 600, height: 400 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-masks-03-object-removal-result");

    await deleteOnlyRow(page);
    expect(await storedRequests(page, baseUrl, projectId, "/v1/images/object-removal")).toHaveLength(0);
  });

  it("shows Error Removing Object when the engine refuses a mask over the whole image", async () => {
    const { page } = session;
    await page.goto("/playground/object-removal");
    await page.getByText(EMPTY_HISTORY).waitFor();
    await page.locator("input[type=file]").setInputFiles(COFFEE);
    await page.getByRole("img", { name: /Original Image: coffee\.png/ }).waitFor();

    const { popup, canvas, box } = await openMaskPopup(page, "Select Object to Remove");
    const shapeSize = popup.getByRole("slider", { name: "Shape Size" });
    await setSlider(shapeSize, "End");
    // The sweeps below only cover the picture with the largest shape: they start once it is set.
    const largest = await shapeSize.getAttribute("aria-valuemax");
    await expect.poll(() => shapeSize.getAttribute("aria-valuenow")).toBe(largest);
    // Sweeps 200 px wide (radius on screen) over the whole picture, starting outside its edges.
    // Rows 250 screen px apart, the last on the bottom edge, all inside the popup.
    const rows = Math.ceil(box.height / 250) + 1;
    for (let index = 0; index < rows; index += 1) {
      const y = (Math.min(index * 250, box.height - 1) / box.height) * 400;
      await stroke(page, canvas, 600, [
        [-20, y],
        [620, y],
      ]);
    }
    expect(await paintedShare(canvas)).toBe(1);
    await popup.getByRole("button", { name: "I'm Done" }).click();
    await popup.waitFor({ state: "hidden" });
    expect(await page.getByTestId("mask-coverage").textContent()).toBe("100% of the image");

    await page.getByRole("button", { name: "Remove Object" }).click();
    const dialog = await waitForDialog(page, ERROR_REMOVING_OBJECT, { message: /covers the whole image/ });
    const row = historyRows(page).first();
    expect(await row.getAttribute("data-status")).toBe("error");
    await row.getByText("Generation Error").first().waitFor();
    await session.screenshot("playground-masks-04-object-removal-refused");
    await closeDialog(dialog);

    // The server keeps the refused request as a failed row; it is deleted through the confirmation.
    await page.reload();
    const storedRow = historyRows(page).first();
    await storedRow.waitFor();
    expect(await storedRow.getAttribute("data-status")).toBe("error");
    await storedRow.getByRole("img", { name: "Mask overlay" }).waitFor();
    await deleteOnlyRow(page);
    await page.locator("input[type=file]").setInputFiles(COFFEE);
    await page.getByRole("img", { name: /Original Image: coffee\.png/ }).waitFor();
    const again = await openMaskPopup(page, "Select Object to Remove");
    await stroke(page, again.canvas, 600, [
      [100, 100],
      [200, 150],
    ]);
    await again.popup.getByRole("button", { name: "I'm Done" }).click();
    await page.getByText("Mask drawn").waitFor();

    // A new image resets the mask.
    await page.getByRole("button", { name: "Remove image" }).click();
    await page.getByText("Upload an image to draw a mask.").waitFor();
    await page.locator("input[type=file]").setInputFiles(CHELSEA);
    await page.getByRole("img", { name: /Original Image: chelsea\.png/ }).waitFor();
    await page.getByText("No mask drawn yet.").waitFor();

    // Not available on mobile: the framework shows the notice instead of the inputs.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/playground/object-removal");
    await page.getByTestId("mobile-unavailable").waitFor();
    await page.getByText("Not available on mobile").waitFor();
    expect(await page.getByRole("button", { name: "Remove Object" }).isDisabled()).toBe(true);
    await session.screenshot("playground-masks-05-object-removal-mobile");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole("button", { name: "Select Object to Remove" }).waitFor();
    await page.getByText("Upload an image to draw a mask.").waitFor();
  });

  it("fills a masked area on the model server with the prompt and the debug values", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/generative-fill");
    await page.getByRole("heading", { name: "Generative Fill" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const action = page.getByRole("button", { name: "Generate" });
    expect(await action.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Draw a Mask" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("prompt-counter").textContent()).toBe("0/1000");
    // Outside production the debug sliders are shown with the spec's defaults.
    const denoise = page.getByRole("slider", { name: "Denoise" });
    const cfg = page.getByRole("slider", { name: "CFG Scale" });
    expect(await denoise.getAttribute("aria-valuenow")).toBe("0.7");
    expect(await denoise.getAttribute("aria-valuemin")).toBe("0.5");
    expect(await denoise.getAttribute("aria-valuemax")).toBe("1");
    expect(await page.getByTestId("denoise-value").textContent()).toBe("0.70");
    expect(await cfg.getAttribute("aria-valuenow")).toBe("46");
    expect(await cfg.getAttribute("aria-valuemin")).toBe("1");
    expect(await cfg.getAttribute("aria-valuemax")).toBe("100");

    await page.locator("input[type=file]").setInputFiles(COFFEE);
    await page.getByRole("img", { name: /Original Image: coffee\.png/ }).waitFor();
    expect(await action.isDisabled()).toBe(false);
    const prompt = "a small glass of water";
    await page.getByRole("textbox", { name: "Prompt" }).fill(prompt);
    expect(await page.getByTestId("prompt-counter").textContent()).toBe(`${prompt.length}/1000`);

    const { popup, canvas } = await openMaskPopup(page, "Draw a Mask");
    await stroke(page, canvas, 600, [
      [380, 80],
      [370, 300],
    ]);
    await popup.getByRole("button", { name: "I'm Done" }).click();
    await popup.waitFor({ state: "hidden" });
    await page.getByText("Mask drawn").waitFor();
    await session.screenshot("playground-masks-06-generative-fill-ready");

    await action.click();
    const row = await waitForRow(page);
    expect(await row.getAttribute("data-status")).toBe("done");
    await row.getByRole("img", { name: "Mask overlay" }).waitFor();
    const call = await lastModelCall("generative-fill");
    expect(call.fields).toMatchObject({ prompt, denoise: "0.7", cfg: "46" });
    expect(call.files.image?.[0]).toMatchObject({ width: 600, height: 400 });
    expect(call.files.mask?.[0]).toMatchObject({ width: 600, height: 400 });
    expect(call.files.mask?.[0]?.whiteShare ?? 0).toBeGreaterThan(0);
    const [stored] = await storedRequests(page, baseUrl, projectId, "/v1/images/generative-fill");
    expect(stored?.request_data.body).toMatchObject({ prompt, denoise: 0.7, cfg: 46 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-masks-07-generative-fill-result");
    await deleteOnlyRow(page);

    // A model failure: the row fails and fill shows the object removal dialog.
    await failNextModelCall("generative-fill", 500, "The GPU ran out of memory.");
    await action.click();
    const dialog = await waitForDialog(page, ERROR_REMOVING_OBJECT);
    const failed = historyRows(page).first();
    expect(await failed.getAttribute("data-status")).toBe("error");
    await session.screenshot("playground-masks-08-generative-fill-failed");
    await closeDialog(dialog);
  });

  it("reimagines with a changed denoise and an inverted mask", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/reimagine");
    await page.getByRole("heading", { name: "Reimagine" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const action = page.getByRole("button", { name: "Reimagine" });
    expect(await action.isDisabled()).toBe(true);
    const denoise = page.getByRole("slider", { name: "Denoise" });
    expect(await denoise.getAttribute("aria-valuenow")).toBe("0.7");
    expect(await page.getByTestId("denoise-value").textContent()).toBe("0.70");
    // Use Mask is a non-production control; the mask tools appear only with it.
    const useMask = page.getByRole("checkbox", { name: "Use Mask" });
    expect(await useMask.isChecked()).toBe(false);
    expect(await page.getByRole("button", { name: "Select Area To Change" }).count()).toBe(0);
    expect(await page.getByRole("checkbox", { name: "Invert Mask" }).count()).toBe(0);

    await page.locator("input[type=file]").setInputFiles(COFFEE);
    await page.getByRole("img", { name: /Original Image: coffee\.png/ }).waitFor();
    expect(await action.isDisabled()).toBe(false);
    await setSlider(denoise, "ArrowRight", 15);
    expect(await page.getByTestId("denoise-value").textContent()).toBe("0.85");

    await useMask.check();
    const invert = page.getByRole("checkbox", { name: "Invert Mask" });
    await invert.waitFor();
    // Use Mask on but nothing drawn: explained, not sent.
    await action.click();
    const noMask = await waitForDialog(page, "No Mask Drawn", { message: /Select Area To Change/ });
    await closeDialog(noMask);

    const { popup, canvas } = await openMaskPopup(page, "Select Area To Change");
    await setSlider(popup.getByRole("slider", { name: "Shape Size" }), "End");
    await stroke(page, canvas, 600, [
      [150, 150],
      [300, 200],
    ]);
    await popup.getByRole("button", { name: "I'm Done" }).click();
    await popup.waitFor({ state: "hidden" });
    const coverage = await shownCoverage(page);
    expect(coverage).toBeGreaterThan(0.05);
    expect(coverage).toBeLessThan(0.9);

    await invert.check();
    await session.screenshot("playground-masks-09-reimagine-ready");
    await action.click();
    const row = await waitForRow(page);
    expect(await row.getAttribute("data-status")).toBe("done");
    // Rows show Original and Result only.
    await row.getByRole("img", { name: "Original" }).waitFor();
    await row.getByRole("img", { name: "Result" }).waitFor();
    expect(await row.getByRole("img", { name: "Mask overlay" }).count()).toBe(0);

    const call = await lastModelCall("reimagine");
    expect(call.fields.denoise).toBe("0.85");
    const sent = call.files.mask?.[0];
    expect(sent).toMatchObject({ width: 600, height: 400, type: "image/png" });
    expect(Math.abs((sent?.whiteShare ?? 0) - (1 - coverage))).toBeLessThan(0.011);
    const [stored] = await storedRequests(page, baseUrl, projectId, "/v1/images/reimagine");
    expect(stored?.request_data.body).toMatchObject({ denoise: 0.85 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-masks-10-reimagine-result");

    await deleteOnlyRow(page);

    // A new image resets the mask.
    await page.getByRole("button", { name: "Remove image" }).click();
    await page.getByText("Upload an image to draw a mask.").waitFor();
    await page.locator("input[type=file]").setInputFiles(CHELSEA);
    await page.getByRole("img", { name: /Original Image: chelsea\.png/ }).waitFor();
    await page.getByText("No mask drawn yet.").waitFor();
  });
});

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, SCREENSHOT_DIR } from "./browser";
import { openMaskPopup } from "./mask-drawing";
import { failNextModelCall, lastModelCall, type TrainedClone, trainClone } from "./model-server-control";
import {
  CHARGED_PRICE_LINE,
  closeDialog,
  deleteHistoryRow,
  deleteOnlyRow,
  EMPTY_HISTORY,
  expectImageLoaded,
  historyRows,
  openFundedPlayground,
  storedFile,
  storedRequests,
  waitForDialog,
} from "./playground-helpers";

const SWAP_FAILED_TITLE = "Error Swapping Faces";
const INPAINT_FAILED_TITLE = "Error Inpainting Image";
const INPAINT_FAILED_MESSAGE =
  "An error occurred while applying the inpainting. Please try again later or contact our support.";
/** The builtin engine runs face landmarks and blending on the CPU of a busy 2-core machine. */
const ENGINE_WAIT_MS = 120_000;
const FACE_SWAPPING = "/v1/images/face-swapping";

const fixture = (name: string) =>
  readFileSync(resolve(import.meta.dirname, "../../../fixtures/images", name));
const astronaut = fixture("astronaut.png");
const coffee = fixture("coffee.png");
/** rocket.jpg: a Falcon 9 on its launch pad, where the face detector once saw a face (issue 27). */
const rocket = fixture("rocket.jpg");

let projectId = "";

/**
 * Records the mask file of every feature call the page sends (type and bytes), by wrapping the page's
 * fetch before the console loads: the browser does not expose uploaded blobs to request inspection.
 */
async function recordSentMasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: { type: string; name: string; base64: string }[] = [];
    Object.assign(window, { __sentMasks: sent });
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const mask = init?.body instanceof FormData ? init.body.get("mask") : null;
      if (mask instanceof File) {
        const bytes = new Uint8Array(await mask.arrayBuffer());
        let binary = "";
        for (const byte of bytes) binary += String.fromCharCode(byte);
        sent.push({ type: mask.type, name: mask.name, base64: btoa(binary) });
      }
      return original(input, init);
    };
  });
}

async function sentMasks(page: Page): Promise<{ type: string; name: string; data: Buffer }[]> {
  const sent = await page.evaluate(
    () =>
      (window as unknown as { __sentMasks: { type: string; name: string; base64: string }[] }).__sentMasks,
  );
  return sent.map((mask) => ({ type: mask.type, name: mask.name, data: Buffer.from(mask.base64, "base64") }));
}

/** Size and brightest channel value of an image. */
async function describeImage(data: Buffer) {
  const image = sharp(data);
  const { width, height, format } = await image.metadata();
  const { channels } = await image.stats();
  return { width, height, format, brightest: Math.max(...channels.map((channel) => channel.max)) };
}

/**
 * A screenshot of the viewport only, for open popups: a full-page capture briefly resizes the page,
 * which the console's mobile check can see, and that closes the popup being photographed.
 */
async function viewportScreenshot(page: Page, name: string) {
  await page.screenshot({ path: resolve(SCREENSHOT_DIR, `${name}.png`) });
}

/** Waits for a dialog's opening fade to finish, so its screenshot is not half transparent. */
async function settled(dialog: Locator) {
  await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity)).toBe("1");
}

/**
 * Waits until the list holds `rows` rows and the newest one finished; fails with its reason when it
 * ended in Generation Error.
 */
async function waitForFinishedRow(page: Page, rows: number, timeout: number) {
  // The row shows once the uploads are sent, which on a loaded machine takes more than poll's 1 s.
  await expect.poll(() => historyRows(page).count(), { timeout, interval: 250 }).toBe(rows);
  const first = historyRows(page).first();
  await expect
    .poll(() => first.getAttribute("data-status"), { timeout, interval: 500 })
    .not.toBe("generating");
  if ((await first.getAttribute("data-status")) === "error") {
    const reason = await first
      .getByTestId("row-error-reason")
      .textContent()
      .catch(() => null);
    throw new Error(`the row ended in Generation Error: ${reason}`);
  }
  return first;
}

async function expectPictures(row: Locator, labels: string[]) {
  for (const label of labels) {
    const picture = row.getByRole("img", { name: label, exact: true });
    await picture.waitFor();
    await expectImageLoaded(picture);
  }
}

describe("playground: face swapping and identity inpainting", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Fay",
      lastName: "Swapper",
      label: "faces",
    }));
    await recordSentMasks(session.page);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("swaps a face with and without the empty custom mask, then deletes the rows", async () => {
    const { page, baseUrl } = session;
    const mirrored = await sharp(astronaut).flop().png().toBuffer();

    await page.goto("/playground/face-swapping");
    await page.getByRole("heading", { name: "Face Swapping" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    await page.getByText("The face to use", { exact: false }).waitFor();
    await page.getByText("The face to replace", { exact: false }).waitFor();
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);
    const swap = page.getByRole("button", { name: "Swap Face" });
    expect(await swap.isDisabled()).toBe(true);

    // The custom mask: its tooltip explains it; Draw the Mask needs a target.
    const customMask = page.getByRole("checkbox", { name: "Use Custom Mask" });
    await page.getByRole("button", { name: "About the custom mask" }).hover();
    await page
      .getByText("Paint where on the target image the new face may appear", { exact: false })
      .waitFor();
    await customMask.check();
    const drawMask = page.getByRole("button", { name: "Draw the Mask" });
    await drawMask.waitFor();
    expect(await drawMask.isDisabled()).toBe(true);
    await customMask.uncheck();
    await drawMask.waitFor({ state: "detached" });

    await page
      .locator('[aria-label="Source Image"] input[type=file]')
      .setInputFiles({ name: "mirrored.png", mimeType: "image/png", buffer: mirrored });
    await page.getByRole("img", { name: "Source Image: mirrored.png" }).waitFor();
    // Only the source: Swap Face still needs the target.
    expect(await swap.isDisabled()).toBe(true);
    await page
      .locator('[aria-label="Target Image"] input[type=file]')
      .setInputFiles({ name: "astronaut.png", mimeType: "image/png", buffer: astronaut });
    await page.getByRole("img", { name: "Target Image: astronaut.png" }).waitFor();
    expect(await swap.isDisabled()).toBe(false);
    await session.screenshot("playground-faces-01-face-swapping-ready");

    // First swap: no custom mask, so none is sent.
    const answered = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith(FACE_SWAPPING),
      { timeout: ENGINE_WAIT_MS },
    );
    await swap.click();
    const answer = await answered;
    // The playground submits asynchronously (Prefer: respond-async) and follows the call's row.
    expect(answer.status(), await answer.text()).toBe(202);
    const plainRow = await waitForFinishedRow(page, 1, ENGINE_WAIT_MS);
    await expectPictures(plainRow, ["Original", "Target", "Result"]);
    const [plain] = await storedRequests(page, baseUrl, projectId, "/v1/images/face-swapping");
    expect(Object.keys(plain?.request_data.files ?? {}).sort()).toEqual(["source", "target"]);

    // Second swap: Use Custom Mask with nothing drawn sends an all-black JPEG of the target's size.
    await customMask.check();
    expect(await drawMask.isDisabled()).toBe(false);
    await page.getByText("No mask drawn yet.").waitFor();
    expect(await sentMasks(page)).toEqual([]);
    const maskedAnswer = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith(FACE_SWAPPING),
      { timeout: ENGINE_WAIT_MS },
    );
    await swap.click();
    const maskedResponse = await maskedAnswer;
    expect(maskedResponse.status(), await maskedResponse.text()).toBe(202);
    const [sentMask] = await sentMasks(page);
    expect(sentMask?.type).toBe("image/jpeg");
    const sentImage = await describeImage(sentMask?.data ?? Buffer.alloc(0));
    expect(sentImage).toMatchObject({ format: "jpeg", width: 512, height: 512 });
    expect(sentImage.brightest).toBeLessThanOrEqual(8);

    const maskedRow = await waitForFinishedRow(page, 2, ENGINE_WAIT_MS);
    await expectPictures(maskedRow, ["Original", "Target", "Result"]);
    expect(await historyRows(page).count()).toBe(2);
    const [masked] = await storedRequests(page, baseUrl, projectId, "/v1/images/face-swapping");
    const maskUrl = masked?.request_data.files.mask?.[0];
    expect(maskUrl, "the mask was stored with the request").toBeDefined();
    const storedMask = await describeImage(await storedFile(page, baseUrl, maskUrl ?? ""));
    expect(storedMask).toMatchObject({ width: 512, height: 512 });
    expect(storedMask.brightest).toBeLessThanOrEqual(8);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-faces-02-face-swapping-results");

    // A new target clears the mask state (nothing drawn either way) and keeps the option on.
    await page.getByRole("button", { name: "Remove image" }).nth(1).click();
    expect(await swap.isDisabled()).toBe(true);
    expect(await drawMask.isDisabled()).toBe(true);
    await page.getByText("Upload an image to draw a mask.").waitFor();

    await deleteHistoryRow(page, historyRows(page).first());
    await expect.poll(() => historyRows(page).count()).toBe(1);
    await deleteOnlyRow(page);
    expect(await storedRequests(page, baseUrl, projectId, "/v1/images/face-swapping")).toEqual([]);
  }, 420_000);

  it("shows Error Swapping Faces with the reason when the source has no face", async () => {
    const { page } = session;
    await page.goto("/playground/face-swapping");
    await page.getByRole("heading", { name: "Face Swapping" }).waitFor();
    await page
      .locator('[aria-label="Source Image"] input[type=file]')
      .setInputFiles({ name: "coffee.png", mimeType: "image/png", buffer: coffee });
    await page
      .locator('[aria-label="Target Image"] input[type=file]')
      .setInputFiles({ name: "astronaut.png", mimeType: "image/png", buffer: astronaut });
    await page.getByRole("img", { name: "Target Image: astronaut.png" }).waitFor();
    await page.getByRole("button", { name: "Swap Face" }).click();

    const dialog = await waitForDialog(page, SWAP_FAILED_TITLE, {
      message: "No face was found in the source image.",
      timeout: ENGINE_WAIT_MS,
    });
    const row = historyRows(page).first();
    expect(await row.getAttribute("data-status")).toBe("error");
    await settled(dialog);
    await viewportScreenshot(page, "playground-faces-03-face-swapping-no-face");
    await closeDialog(dialog);
    await row.getByText("Generation Error").first().waitFor();
    await row.getByTestId("row-error-reason").getByText("No face was found in the source image.").waitFor();

    // The rocket as the target: refused with its reason (modules/features/abuse.test.ts checks
    // that nothing is charged).
    await page.goto("/playground/face-swapping");
    await page.getByRole("heading", { name: "Face Swapping" }).waitFor();
    await page
      .locator('[aria-label="Source Image"] input[type=file]')
      .setInputFiles({ name: "astronaut.png", mimeType: "image/png", buffer: astronaut });
    await page
      .locator('[aria-label="Target Image"] input[type=file]')
      .setInputFiles({ name: "rocket.jpg", mimeType: "image/jpeg", buffer: rocket });
    await page.getByRole("img", { name: "Target Image: rocket.jpg" }).waitFor();
    await page.getByRole("button", { name: "Swap Face" }).click();
    const rocketDialog = await waitForDialog(page, SWAP_FAILED_TITLE, {
      message: "No face was found in the target image.",
      timeout: ENGINE_WAIT_MS,
    });
    await settled(rocketDialog);
    await viewportScreenshot(page, "playground-faces-04-face-swapping-no-face-on-the-rocket");
    await closeDialog(rocketDialog);
    await historyRows(page)
      .first()
      .getByTestId("row-error-reason")
      .getByText("No face was found in the target image.")
      .waitFor();
  }, 240_000);

  describe("identity inpainting", () => {
    it("inpaints the selected AI Clone into the drawn area with its identity header", async () => {
      const { page, baseUrl } = session;
      const clone: TrainedClone = await trainClone(page, baseUrl, projectId, "Eileen");
      await page.goto("/playground/identity-inpainting");
      await page.getByRole("heading", { name: "Identity Inpainting" }).waitFor();
      await page.getByText(EMPTY_HISTORY).waitFor();
      expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);

      // The first ready clone is selected once the list has loaded.
      const picker = page.getByTestId("identity-picker");
      await picker.getByText("Eileen").waitFor();
      const inpaint = page.getByRole("button", { name: "Inpaint", exact: true });
      expect(await inpaint.isDisabled()).toBe(true);
      const selectArea = page.getByRole("button", { name: "Select Area to Inpaint" });
      expect(await selectArea.isDisabled()).toBe(true);

      // Choosing from the list closes it.
      await picker.click();
      const list = page.getByRole("listbox");
      await list.getByRole("option", { name: "Eileen" }).waitFor();
      await viewportScreenshot(page, "playground-faces-04-identity-picker-open");
      await list.getByRole("option", { name: "Eileen" }).click();
      await list.waitFor({ state: "hidden" });

      await page
        .locator('[aria-label="Original Image"] input[type=file]')
        .setInputFiles({ name: "astronaut.png", mimeType: "image/png", buffer: astronaut });
      await page.getByRole("img", { name: "Original Image: astronaut.png" }).waitFor();
      // Image and clone: Inpaint is enabled even before a mask is drawn.
      expect(await inpaint.isDisabled()).toBe(false);

      const { popup: editor, box } = await openMaskPopup(page, "Select Area to Inpaint");
      await page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.3);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.3, { steps: 8 });
      await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.55, { steps: 8 });
      await page.mouse.up();
      await viewportScreenshot(page, "playground-faces-05-identity-mask-editor");
      await editor.getByRole("button", { name: "I'm Done" }).click();
      await editor.waitFor({ state: "hidden" });
      await page.getByText("Mask drawn").waitFor();

      await page.getByRole("checkbox", { name: "Use Artistic Checkpoint" }).check();
      const prompt = page.getByPlaceholder("Type your prompt here..");
      await prompt.fill("smiling, studio light");
      expect(await page.getByTestId("prompt-counter").textContent()).toBe("21/1000");
      await session.screenshot("playground-faces-06-identity-ready");

      await inpaint.click();
      const row = await waitForFinishedRow(page, 1, 60_000);
      await expectPictures(row, ["Original", "Mask overlay", "Result"]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await session.screenshot("playground-faces-07-identity-result");

      const received = await lastModelCall("identity-inpainting");
      expect(received.identityRequestId).toBe(clone.id);
      expect(received.fields).toMatchObject({
        identity_id: clone.identity_id,
        artistic: "true",
        prompt: "smiling, studio light",
      });
      const mask = received.files.mask?.[0];
      expect(mask).toMatchObject({ width: 512, height: 512 });
      expect(mask?.whiteShare).toBeGreaterThan(0.01);
      expect(mask?.whiteShare).toBeLessThan(0.5);

      await deleteOnlyRow(page);
    }, 180_000);

    it("shows Error Inpainting Image when the model fails", async () => {
      const { page } = session;
      await page.goto("/playground/identity-inpainting");
      await page.getByTestId("identity-picker").getByText("Eileen").waitFor();
      await page
        .locator('[aria-label="Original Image"] input[type=file]')
        .setInputFiles({ name: "astronaut.png", mimeType: "image/png", buffer: astronaut });
      await page.getByRole("img", { name: "Original Image: astronaut.png" }).waitFor();
      const { popup: editor, box } = await openMaskPopup(page, "Select Area to Inpaint");
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await editor.getByRole("button", { name: "I'm Done" }).click();
      await editor.waitFor({ state: "hidden" });

      await failNextModelCall("identity-inpainting", 500, "The GPU ran out of memory.");
      await page.getByRole("button", { name: "Inpaint", exact: true }).click();
      const dialog = await waitForDialog(page, INPAINT_FAILED_TITLE, {
        message: INPAINT_FAILED_MESSAGE,
        timeout: 60_000,
      });
      const row = historyRows(page).first();
      expect(await row.getAttribute("data-status")).toBe("error");
      await settled(dialog);
      await viewportScreenshot(page, "playground-faces-08-identity-failed");
      await closeDialog(dialog);
      await row.getByText("Generation Error").first().waitFor();
    }, 120_000);
  });
});

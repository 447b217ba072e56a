import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { backgroundRemovalFeature } from "@prism/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { post, signUpFundedOwner } from "./funded-owner";
import {
  CHARGED_PRICE_LINE,
  closeDialog,
  EMPTY_HISTORY,
  expectFeatureUnavailable,
  expectImageLoaded,
  featureStatus,
  historyRows,
} from "./playground-helpers";

const run = promisify(execFile);

type Rgba = [number, number, number, number];

/** "#12b886" as the browser computes it: "rgb(18, 184, 134)". */
function rgbOf(hex: string): string {
  const [red, green, blue] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
  return `rgb(${red}, ${green}, ${blue})`;
}

/** A PNG of `width` x `height`; `pixel(x, y)` gives RGBA (default: a dark disc on a light background). */
function makePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgba = (x, y) => {
    const dx = x - width / 2;
    const dy = y - height / 2;
    return dx * dx + dy * dy < (Math.min(width, height) / 3) ** 2 ? [200, 40, 60, 255] : [235, 240, 245, 255];
  },
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) raw.set(pixel(x, y), (y * width + x) * 4);
  }
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

describe("playground: background removal end to end", () => {
  let session: BrowserSession;
  let workDir: string;

  beforeAll(async () => {
    session = await openBrowser();
    workDir = mkdtempSync(resolve(tmpdir(), "prism-playground-"));
  });

  afterAll(async () => {
    await session?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("removes a background, shows the API call that works with a real key, and counts the usage on home", async () => {
    const { page, baseUrl } = session;
    const { projectId } = await signUpFundedOwner(page, baseUrl, {
      firstName: "Pia",
      lastName: "Playground",
      label: "playground",
    });
    await skipWelcomePopup(page);

    const status = await featureStatus(page, baseUrl, "/v1/images/background-removal");
    expect(status).toBeDefined();

    await page.goto("/playground/image-background-removal");
    await page.getByRole("heading", { name: "Background Removal" }).waitFor();
    await page.getByRole("heading", { name: "Your Images" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const action = page.getByRole("button", { name: "Remove Background" });
    expect(await action.isDisabled()).toBe(true);
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);

    if (!status?.available) {
      // No engine for this feature on this machine: the screen says so and the action stays off.
      console.warn(`background removal unavailable in the test server: ${status?.reason}`);
      await page.getByTestId("feature-unavailable").waitFor();
      await page.locator("input[type=file]").setInputFiles({
        name: "subject.png",
        mimeType: "image/png",
        buffer: await makePng(320, 240),
      });
      expect(await action.isDisabled()).toBe(true);
      await session.screenshot("playground-01-background-removal-unavailable");
      return;
    }

    await session.screenshot("playground-01-background-removal-empty");
    const png = await makePng(320, 240);
    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "subject.png", mimeType: "image/png", buffer: png });
    await page.getByRole("img", { name: /Original Image: subject\.png/ }).waitFor();
    expect(await action.isDisabled()).toBe(false);

    // Hold the call for a moment so the generating row and its counter are surely visible.
    await page.route("**/v1/images/background-removal", async (route) => {
      await new Promise((done) => setTimeout(done, 1_500));
      await route.continue();
    });
    await action.click();
    const generating = historyRows(page, "generating");
    await generating.waitFor();
    await expect.poll(() => page.getByTestId("elapsed-timer").textContent()).toMatch(/^\d+\.\ds$/);
    await session.screenshot("playground-02-generating");

    const done = historyRows(page, "done");
    await done.waitFor({ timeout: 60_000 });
    await page.unroute("**/v1/images/background-removal");
    expect(await historyRows(page).count()).toBe(1);
    const result = done.getByRole("img", { name: "Result" });
    await result.waitFor();
    await expectImageLoaded(result);
    expect(await result.getAttribute("src")).toMatch(/^\/v1\/files\/.+_thumb$/);
    const download = done.getByRole("link", { name: "Download" });
    expect(await download.getAttribute("download")).toBe("image.png");
    // The balance in the top bar follows the call's answer.
    await expect.poll(() => page.getByTestId("balance").textContent()).not.toBe("$20.00");
    await session.screenshot("playground-03-result");

    // The lightbox opens on the result and wraps around.
    await result.click();
    const gallery = page.getByRole("dialog", { name: "Image gallery" });
    await gallery.waitFor();
    await gallery.getByRole("button", { name: "Next image" }).click();
    await gallery.getByRole("button", { name: "Next image" }).click();
    // The 320×240 result is fitted to the 1440×900 screen, not shown at its own small size, and says its size.
    const shown = gallery.locator(".yarl__slide_current img.yarl__slide_image");
    await expectImageLoaded(shown);
    await gallery.getByTestId("lightbox-dimensions").getByText("320 × 240 px").first().waitFor();
    // Once the slide has moved in (200 ms), it lies inside the screen at well over its own height.
    await expect
      .poll(async () => {
        const box = await shown.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 1440 && box.y + box.height <= 900;
      })
      .toBe(true);
    expect((await shown.boundingBox())!.height).toBeGreaterThan(600);
    await page.waitForTimeout(300);
    await session.screenshot("playground-04-lightbox");
    await gallery.getByRole("button", { name: "Close gallery" }).click();
    await gallery.waitFor({ state: "hidden" });

    // Compare: the original and the result on either side of a slider the keyboard moves.
    await done.getByRole("button", { name: "Compare" }).click();
    const comparison = page.getByRole("dialog", { name: "Before and after" });
    const slider = comparison.getByRole("slider");
    await slider.waitFor();
    expect(await slider.getAttribute("aria-valuenow")).toBe("50");
    await slider.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("40");
    await comparison.getByText("Before · 320 × 240 px").waitFor();
    await comparison.getByText("After · 320 × 240 px").waitFor();
    const frame = (await comparison.getByTestId("before-after").boundingBox())!;
    expect(frame.width).toBeGreaterThan(640);
    expect(frame.y + frame.height).toBeLessThanOrEqual(900);
    await page.waitForTimeout(300);
    await session.screenshot("playground-04b-compare");
    await comparison.getByRole("button", { name: "Close", exact: true }).click();
    await comparison.waitFor({ state: "hidden" });

    // Show API Call: the cURL runs against the server with a real key.
    await done.getByRole("button", { name: "Show API Call" }).click();
    const details = page.getByRole("dialog", { name: "API Call Details" });
    await details.waitFor();
    for (const tab of ["cURL", "Python", "JavaScript", "TypeScript"]) {
      await details.getByRole("tab", { name: tab, exact: true }).waitFor();
    }
    const curl = (await details.getByTestId("api-call-code").textContent()) ?? "";
    expect(curl).toContain(`${baseUrl}/v1/images/background-removal`);
    expect(curl).toContain('-H "Authorization: Bearer $PRISM_API_KEY"');
    await details.getByRole("button", { name: "Copy" }).click();
    await details.getByText("Code copied to clipboard!").waitFor();
    await session.screenshot("playground-05-api-call");
    await closeDialog(details);

    const { apiKey } = await post<{ apiKey: { content: string } }>(
      page,
      baseUrl,
      "/v1/users/api-keys/insert",
      {
        projectId,
        apiKeyName: "e2e snippet",
      },
    );
    const fileName = /-F 'image=@([^']+)'/.exec(curl)?.[1];
    expect(fileName).toBeTruthy();
    writeFileSync(resolve(workDir, fileName as string), png);
    const command = `${curl} -sS -o response.json -w '%{http_code}'`;
    const { stdout } = await run("bash", ["-c", command], {
      cwd: workDir,
      timeout: 90_000,
      env: { ...process.env, PRISM_API_KEY: apiKey.content },
    });
    expect(stdout.trim()).toBe("200");

    // Home: the two calls are in the chart, the table and the pie.
    await page.goto("/home");
    const table = page.getByTestId("usage-table");
    await table.getByText("Background Removal").waitFor();
    const row = table.locator("tr", { hasText: "Background Removal" });
    // The table says what a unit is for the feature.
    expect(await row.locator("td").nth(1).textContent()).toBe("2 calls");
    expect(await row.locator("td").nth(3).textContent()).toBe("100.0%");
    // Days without usage render empty bar groups; today's bar is a drawn rectangle.
    const bar = page.getByTestId("usage-chart").locator(".recharts-bar-rectangle path").first();
    await bar.waitFor();
    const sector = page.getByTestId("usage-pie").locator(".recharts-pie-sector path").first();
    await sector.waitFor();
    // The table's cost column has the spec's 3 decimals; the total, like all money elsewhere, 2.
    expect(await row.locator("td").nth(2).textContent()).toMatch(/^\$0\.\d{3}$/);
    await expect.poll(() => page.getByTestId("total-cost").textContent()).toMatch(/^\$0\.\d{2}$/);
    // The bars stack dollars, the one measure every feature shares.
    expect(await page.getByTestId("usage-chart-caption").textContent()).toMatch(
      /^Cost per day of .+, by feature$/,
    );

    // One colour per feature, from the catalog: the bar, the pie slice and the table's key agree.
    const color = backgroundRemovalFeature.color;
    expect((await bar.getAttribute("fill"))?.toLowerCase()).toBe(color);
    expect((await sector.getAttribute("fill"))?.toLowerCase()).toBe(color);
    expect(
      await row.getByTestId("feature-swatch").evaluate((swatch) => getComputedStyle(swatch).backgroundColor),
    ).toBe(rgbOf(color));
    await session.screenshot("home-01-usage-after-call");

    // A single feature is a full disc: no seam from the centre to the edge (a slice stroke would
    // draw one in the page's background colour at 3 o'clock).
    await page.mouse.move(0, 0);
    const box = await sector.boundingBox();
    if (!box) throw new Error("the pie has no size");
    const shot = await page.screenshot({ clip: box });
    const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const [red, green, blue] = [1, 3, 5].map((start) => Number.parseInt(color.slice(start, start + 2), 16));
    const radius = info.width / 2;
    const far: string[] = [];
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      for (let along = 0.2; along <= 0.85; along += 0.05) {
        for (let across = -2; across <= 2; across += 1) {
          const x = Math.round(radius + dx * along * radius + dy * across);
          const y = Math.round(info.height / 2 + dy * along * radius + dx * across);
          const at = (y * info.width + x) * info.channels;
          const distance = Math.hypot(
            (data[at] ?? 0) - (red ?? 0),
            (data[at + 1] ?? 0) - (green ?? 0),
            (data[at + 2] ?? 0) - (blue ?? 0),
          );
          if (distance > 40) far.push(`${x},${y}: ${data[at]},${data[at + 1]},${data[at + 2]}`);
        }
      }
    }
    expect(far).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await table.getByText("2 calls").waitFor();
      await session.screenshot("home-01b-usage-after-call-phone");
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    // The previous month has no usage: a friendly empty state, no pie; one month picker drives the page.
    expect(await page.getByTestId("month-picker").count()).toBe(1);
    await page.getByRole("button", { name: "Month: previous month", exact: true }).click();
    await page
      .getByText(/^No usage in /)
      .first()
      .waitFor();
    expect(await page.getByTestId("month-picker").textContent()).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
    expect(await page.getByTestId("usage-pie").count()).toBe(0);
    await session.screenshot("home-02-empty-month");
    // Two engine calls, a cURL run and Home's charts: near a minute on a loaded two-core CI machine.
  }, 180_000);

  it("refuses an image over 16 megapixels with Image Size Limit Exceeded", async () => {
    const { page } = session;
    await page.goto("/playground/image-background-removal");
    await page.getByRole("heading", { name: "Your Images" }).waitFor();
    await page.locator("input[type=file]").setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: await makePng(4097, 4096, () => [250, 250, 250, 255]),
    });
    const dialog = page.getByRole("dialog", { name: "Image Size Limit Exceeded" });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByText("The uploaded image exceeds the 16 Megapixel limit.", { exact: false }).waitFor();
    await session.screenshot("playground-06-size-limit");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    expect(await page.getByRole("button", { name: "Remove Background" }).isDisabled()).toBe(true);
  });

  it("upscales an image and refuses one over 4 megapixels", async () => {
    const { page, baseUrl } = session;
    const status = await featureStatus(page, baseUrl, "/v1/images/upscaling");
    await page.goto("/playground/image-upscaling");
    await page.getByRole("heading", { name: "Image Upscaling" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const action = page.getByRole("button", { name: "Upscale Image" });

    await page.locator("input[type=file]").setInputFiles({
      name: "big.png",
      mimeType: "image/png",
      buffer: await makePng(2049, 2048, () => [250, 250, 250, 255]),
    });
    const dialog = page.getByRole("dialog", { name: "Image Size Limit Exceeded" });
    await dialog.getByText("The uploaded image exceeds the 4 Megapixel limit.").waitFor({ timeout: 30_000 });
    await closeDialog(dialog);

    await page.locator("input[type=file]").setInputFiles({
      name: "small.png",
      mimeType: "image/png",
      buffer: await makePng(160, 120),
    });
    await page.getByRole("img", { name: /Original Image: small\.png/ }).waitFor();
    if (!status?.available) {
      await expectFeatureUnavailable(
        session,
        action,
        "upscaling",
        status,
        "playground-07-upscaling-unavailable",
      );
      return;
    }
    await action.click();
    const done = historyRows(page, "done");
    await done.waitFor({ timeout: 60_000 });
    const result = done.getByRole("img", { name: "Result" });
    await expectImageLoaded(result);
    await session.screenshot("playground-07-upscaling-result");
  });
});

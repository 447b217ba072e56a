import { FEATURES, NEEDS_MODEL_SERVER_BADGE } from "@prism/contract";
import { pcmToWav } from "@prism/engine/wav";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REPLICATE_MODELS } from "../../server/src/providers/inference/model-map";
import { type FakeReplicate, startFakeReplicate } from "../../server/test/fake-replicate";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { type ConsoleServer, startConsoleServer } from "./console-server";
import { signUpFundedOwner } from "./funded-owner";
import { openMaskPopup } from "./mask-drawing";
import { EMPTY_HISTORY, historyRows, listTrainedClones } from "./playground-helpers";

/**
 * A deployment whose only model provider is Replicate: the console started with REPLICATE_API_TOKEN
 * (and the base URL of a local fake Replicate, which speaks Replicate's HTTP API to the official
 * client) runs every one of the thirteen playground screens to a result, the builtin engine off. The
 * AI Clone is trained through Replicate's trainings API, and Pegasus generation and identity inpainting
 * then run on the version the training created.
 */

const CATALOGUE = Object.values(DEFAULT_REPLICATE_MODELS).flatMap((entry) =>
  entry?.model.includes(":") ? [entry.model] : [],
);

async function png(width: number, height: number, colour = { r: 180, g: 120, b: 90 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** `seconds` of silence as an 8 kHz WAV file (the engine's writer). */
function wav(seconds: number): Buffer {
  const sampleRate = 8_000;
  return pcmToWav(Buffer.alloc(seconds * sampleRate * 2), sampleRate);
}

async function openScreen(page: Page, route: string, heading: string) {
  await page.goto(route);
  await page.getByRole("heading", { name: heading, level: 2 }).waitFor();
  await page.getByText(EMPTY_HISTORY).or(historyRows(page).first()).waitFor();
}

async function upload(page: Page, name: string, buffer: Buffer, panel = "Original Image") {
  const scoped = page.locator(`[aria-label="${panel}"] input[type=file]`);
  const input = (await scoped.count()) > 0 ? scoped : page.locator("input[type=file]").first();
  await input.setInputFiles({ name, mimeType: "image/png", buffer });
}

async function drawMask(page: Page, title: string) {
  const { popup, box } = await openMaskPopup(page, title);
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.6, { steps: 8 });
  await page.mouse.up();
  await popup.getByRole("button", { name: "I'm Done" }).click();
  await popup.waitFor({ state: "hidden" });
}

async function expectResult(session: BrowserSession, screenshot: string) {
  await expect.poll(() => historyRows(session.page, "done").count(), { timeout: 60_000 }).toBeGreaterThan(0);
  expect(await historyRows(session.page, "error").count()).toBe(0);
  await session.page.evaluate(() => window.scrollTo(0, 0));
  await session.screenshot(screenshot);
}

describe("every playground screen on Replicate", () => {
  let fake: FakeReplicate;
  let server: ConsoleServer;
  let session: BrowserSession;
  let projectId = "";

  beforeAll(async () => {
    fake = await startFakeReplicate({ catalogue: CATALOGUE });
    server = await startConsoleServer({
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.apiUrl,
      BUILTIN_ENGINE: "off",
    });
    session = await openBrowser({ baseUrl: server.baseUrl });
    ({ projectId } = await signUpFundedOwner(session.page, server.baseUrl, {
      firstName: "Rita",
      lastName: "Replicate",
      label: "replicate",
    }));
    await skipWelcomePopup(session.page);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await fake?.close();
  });

  it("lights every feature with one variable: no screen needs a model server", async () => {
    const { page } = session;
    await openScreen(page, "/playground/image-generation", "Image Generation");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const feature of FEATURES) await nav.locator(`a[href="${feature.playgroundRoute}"]`).waitFor();
    expect(await nav.getByLabel(NEEDS_MODEL_SERVER_BADGE, { exact: true }).count()).toBe(0);
    expect(await nav.getByTestId("unavailable-badge").count()).toBe(0);
  });

  it("generates an image and a Pegasus image", async () => {
    const { page } = session;
    await openScreen(page, "/playground/image-generation", "Image Generation");
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("A lighthouse at dusk");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "replicate-01-image-generation");
    expect(fake.log.some((line) => line.endsWith("black-forest-labs/flux-dev"))).toBe(true);

    await openScreen(page, "/playground/pegasus-generation", "Pegasus Generation");
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("A red fox in snow");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "replicate-02-pegasus-generation");
    expect(fake.log.some((line) => line.endsWith("black-forest-labs/flux-1.1-pro"))).toBe(true);
  });

  it("runs the single-image tools: upscaling, background removal, text removal, extension, reimagine", async () => {
    const { page } = session;
    const steps: [string, string, string, string][] = [
      ["/playground/image-upscaling", "Image Upscaling", "Upscale Image", "nightmareai/real-esrgan"],
      [
        "/playground/image-background-removal",
        "Background Removal",
        "Remove Background",
        "851-labs/background-remover",
      ],
      ["/playground/text-removal", "Text Removal", "Remove Texts", "black-forest-labs/flux-kontext-pro"],
      ["/playground/reimagine", "Reimagine", "Reimagine", "black-forest-labs/flux-dev"],
    ];
    let index = 3;
    for (const [route, heading, action, model] of steps) {
      const before = fake.log.filter((line) => line.endsWith(model)).length;
      await openScreen(page, route, heading);
      await upload(page, "photo.png", await png(160, 120));
      await page
        .getByRole("img", { name: /photo\.png/ })
        .first()
        .waitFor();
      await page.getByRole("button", { name: action, exact: true }).click();
      await expectResult(session, `replicate-0${index}-${route.split("/").pop()}`);
      expect(fake.log.filter((line) => line.endsWith(model)).length).toBe(before + 1);
      index += 1;
    }

    await openScreen(page, "/playground/image-extension", "Image Extension");
    await upload(page, "scene.png", await png(160, 120));
    await page.getByTestId("extension-size").waitFor();
    await page.getByRole("textbox", { name: "Extend Right (px)" }).fill("32");
    await page.getByRole("button", { name: "Extend Image" }).click();
    await expectResult(session, "replicate-07-image-extension");
    expect(fake.log.filter((line) => line.endsWith("black-forest-labs/flux-fill-pro")).length).toBe(1);
  });

  it("runs the mask tools: object removal and generative fill", async () => {
    const { page } = session;
    await openScreen(page, "/playground/object-removal", "Object Removal");
    await upload(page, "room.png", await png(160, 120));
    await drawMask(page, "Select Object to Remove");
    await page.getByRole("button", { name: "Remove Object" }).click();
    await expectResult(session, "replicate-08-object-removal");
    expect(fake.log.some((line) => line.endsWith("allenhooo/lama"))).toBe(true);

    await openScreen(page, "/playground/generative-fill", "Generative Fill");
    await upload(page, "room.png", await png(160, 120));
    await drawMask(page, "Draw a Mask");
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("a potted plant");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "replicate-09-generative-fill");
  });

  it("swaps faces and transcribes speech", async () => {
    const { page } = session;
    await openScreen(page, "/playground/face-swapping", "Face Swapping");
    await upload(page, "source.png", await png(120, 120), "Source Image");
    await page.getByRole("img", { name: "Source Image: source.png" }).waitFor();
    await upload(page, "target.png", await png(140, 120, { r: 90, g: 90, b: 200 }), "Target Image");
    await page.getByRole("img", { name: "Target Image: target.png" }).waitFor();
    await page.getByRole("button", { name: "Swap Face" }).click();
    await expectResult(session, "replicate-10-face-swapping");
    expect(fake.log.some((line) => line.endsWith("cdingram/face-swap"))).toBe(true);

    await openScreen(page, "/playground/speech-to-text", "Speech to Text");
    await page
      .locator("input[type=file]")
      .first()
      .setInputFiles({ name: "hello.wav", mimeType: "audio/wav", buffer: wav(3) });
    await page.getByRole("button", { name: "Transcribe Audio" }).click();
    await expectResult(session, "replicate-11-speech-to-text");
    await page.getByText("Hello from the fake Replicate.").first().waitFor();
  });

  it("trains an AI Clone on Replicate, then generates and inpaints with it", async () => {
    const { page, baseUrl } = session;
    await openScreen(page, "/playground/pegasus-training", "AI Clone Training");
    const photos = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => ({
        name: `face-${index}.png`,
        mimeType: "image/png",
        buffer: await png(1024, 1024, { r: 100 + index * 10, g: 120, b: 140 }),
      })),
    );
    await page.locator("input[type=file]").first().setInputFiles(photos);
    await page.getByRole("textbox", { name: "Name" }).fill("Rita");
    await page.getByRole("button", { name: "Start Training" }).click();
    await page.getByText("Training has started!").waitFor({ timeout: 60_000 });
    // The job queue follows the training on Replicate until its version exists.
    await expect
      .poll(async () => (await listTrainedClones(page, baseUrl, projectId))[0]?.identity_status, {
        timeout: 90_000,
        interval: 1_000,
      })
      .toBe("ready");
    const [clone] = await listTrainedClones(page, baseUrl, projectId);
    const training = fake.jobs.get(clone!.identity_id);
    expect(training?.kind).toBe("training");
    const trainedVersion = String((training!.output as { version: string }).version).split(":")[1];
    await page.reload();
    await page.getByTestId("history-row").first().waitFor();
    await session.screenshot("replicate-12-pegasus-training");

    await openScreen(page, "/playground/pegasus-generation", "Pegasus Generation");
    await page.getByRole("checkbox", { name: "Use the AI Cloning" }).check();
    await page.getByTestId("identity-picker").getByText("Rita").waitFor();
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("on a sailing boat");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => historyRows(page, "done").count(), { timeout: 60_000 }).toBe(2);
    await session.screenshot("replicate-13-pegasus-with-clone");
    const cloneRuns = () => [...fake.jobs.values()].filter((job) => job.version === trainedVersion);
    expect(cloneRuns().map((job) => job.input.prompt)).toContain("a photo of TOK, on a sailing boat");

    await openScreen(page, "/playground/identity-inpainting", "Identity Inpainting");
    await page.getByTestId("identity-picker").getByText("Rita").waitFor();
    await upload(page, "portrait.png", await png(160, 160));
    await page.getByRole("img", { name: "Original Image: portrait.png" }).waitFor();
    await drawMask(page, "Select Area to Inpaint");
    await page.getByPlaceholder("Type your prompt here..").fill("smiling");
    await page.getByRole("button", { name: "Inpaint", exact: true }).click();
    await expectResult(session, "replicate-14-identity-inpainting");
    expect(cloneRuns().some((job) => typeof job.input.mask === "string")).toBe(true);
  });

  it("shows the phone layout of a Replicate result", async () => {
    const phone = await openBrowser({ baseUrl: server.baseUrl, phone: true });
    try {
      await phone.context.addCookies(await session.context.cookies());
      await skipWelcomePopup(phone.page);
      await openScreen(phone.page, "/playground/image-generation", "Image Generation");
      await historyRows(phone.page, "done").first().waitFor();
      await phone.screenshot("phone-replicate-image-generation");
    } finally {
      await phone.close();
    }
  });
});

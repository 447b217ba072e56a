import { NEEDS_MODEL_SERVER_BADGE, PROVIDER_SETUPS } from "@prism/contract";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeComfy, startFakeComfy } from "../../server/test/fake-comfyui";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { signUpFundedOwner } from "./funded-owner";
import { type ConsoleServer, startConsoleServer } from "./global-setup";
import { openMaskPopup } from "./mask-drawing";
import { EMPTY_HISTORY, historyRows } from "./playground-helpers";

/**
 * A deployment on the operator's own GPUs: the console started with COMFYUI_URLS naming two local fake
 * ComfyUI instances (one pool) and the builtin engine off. The seven features the shipped workflows
 * serve run to a result through /upload/image, /prompt, /history and /view; the others say they need a
 * model server. A ComfyUI missing a model stops the server at start-up.
 */

const COMFY_FEATURES = PROVIDER_SETUPS.find((setup) => setup.provider === "comfyui")!.features;

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 140, g: 110, b: 80 } } })
    .png()
    .toBuffer();
}

async function openScreen(page: Page, route: string, heading: string) {
  await page.goto(route);
  await page.getByRole("heading", { name: heading, level: 2 }).waitFor();
  await page.getByText(EMPTY_HISTORY).or(historyRows(page).first()).waitFor();
}

async function uploadImage(page: Page, name: string) {
  await page
    .locator("input[type=file]")
    .first()
    .setInputFiles({ name, mimeType: "image/png", buffer: await png(160, 120) });
  await page
    .getByRole("img", { name: new RegExp(name.replace(".", "\\.")) })
    .first()
    .waitFor();
}

async function drawMask(page: Page, title: string) {
  const { popup, box } = await openMaskPopup(page, title);
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6, { steps: 8 });
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

describe("the playground on a pool of ComfyUI instances", () => {
  let instances: FakeComfy[];
  let server: ConsoleServer;
  let session: BrowserSession;

  beforeAll(async () => {
    instances = [await startFakeComfy(), await startFakeComfy()];
    server = await startConsoleServer({
      COMFYUI_URLS: instances.map((instance) => instance.url).join(","),
      BUILTIN_ENGINE: "off",
    });
    session = await openBrowser({ baseUrl: server.baseUrl });
    await signUpFundedOwner(session.page, server.baseUrl, {
      firstName: "Cora",
      lastName: "Comfy",
      label: "comfyui",
    });
    await skipWelcomePopup(session.page);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
    for (const instance of instances ?? []) await instance.close();
  });

  it("marks only the features no workflow serves", async () => {
    const { page } = session;
    await openScreen(page, "/playground/image-generation", "Image Generation");
    const nav = page.getByRole("navigation", { name: "Main" });
    // Thirteen features, seven served by the shipped workflows.
    await expect
      .poll(() => nav.getByLabel(NEEDS_MODEL_SERVER_BADGE, { exact: true }).count())
      .toBe(13 - COMFY_FEATURES.length);
  });

  it("runs generation, Pegasus generation, upscaling, reimagine, extension, object removal and fill", async () => {
    const { page } = session;
    await openScreen(page, "/playground/image-generation", "Image Generation");
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("A castle on a hill");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "comfyui-01-image-generation");

    await openScreen(page, "/playground/pegasus-generation", "Pegasus Generation");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "comfyui-02-pegasus-generation");

    for (const [route, heading, action, shot] of [
      ["/playground/image-upscaling", "Image Upscaling", "Upscale Image", "comfyui-03-upscaling"],
      ["/playground/reimagine", "Reimagine", "Reimagine", "comfyui-04-reimagine"],
    ] as const) {
      await openScreen(page, route, heading);
      await uploadImage(page, "photo.png");
      await page.getByRole("button", { name: action, exact: true }).click();
      await expectResult(session, shot);
    }

    await openScreen(page, "/playground/image-extension", "Image Extension");
    await uploadImage(page, "scene.png");
    await page.getByTestId("extension-size").waitFor();
    await page.getByRole("textbox", { name: "Extend Left (px)" }).fill("24");
    await page.getByRole("button", { name: "Extend Image" }).click();
    await expectResult(session, "comfyui-05-extension");

    await openScreen(page, "/playground/object-removal", "Object Removal");
    await uploadImage(page, "room.png");
    await drawMask(page, "Select Object to Remove");
    await page.getByRole("button", { name: "Remove Object" }).click();
    await expectResult(session, "comfyui-06-object-removal");

    await openScreen(page, "/playground/generative-fill", "Generative Fill");
    await uploadImage(page, "room.png");
    await drawMask(page, "Draw a Mask");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expectResult(session, "comfyui-07-generative-fill");

    // Seven prompts went to the pool, each under the call's own id, with their images uploaded first.
    const prompts = instances.flatMap((instance) => [...instance.prompts.values()]);
    expect(prompts).toHaveLength(7);
    expect(prompts.every((prompt) => prompt.state === "done")).toBe(true);
    expect(
      instances.flatMap((instance) => instance.log).filter((line) => line.startsWith("upload ")),
    ).toHaveLength(1 + 1 + 2 + 2 + 2);
  });

  it("refuses to start against a ComfyUI without the workflows' checkpoint, naming it", async () => {
    const broken = await startFakeComfy();
    broken.checkpoints = ["v1-5-pruned-emaonly.safetensors"];
    try {
      await expect(startConsoleServer({ COMFYUI_URLS: broken.url, BUILTIN_ENGINE: "off" })).rejects.toThrow(
        /exited with code 1/,
      );
    } finally {
      await broken.close();
    }
  });
});

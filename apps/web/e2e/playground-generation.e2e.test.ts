import { PROMPT_MAX_LENGTH, RANDOM_PROMPTS } from "@prism/contract";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { failNextModelCall, lastModelCall, trainClone } from "./model-server-control";
import {
  CHARGED_PRICE_LINE,
  closeDialog,
  deleteHistoryRow,
  EMPTY_HISTORY,
  expectImageLoaded,
  historyRows,
  openFundedPlayground,
  playgroundHistory,
  waitForDialog,
} from "./playground-helpers";

const GENERATION = "/v1/images/generation";
const PEGASUS = "/v1/images/pegasus-generation";

let projectId = "";

const charged = (unitPrice: number, count: number) => `$${(unitPrice * count).toFixed(3)} will be charged`;

async function chooseResolution(page: Page, label: string) {
  await page.getByRole("combobox", { name: "Resolution" }).click();
  await page.getByRole("option", { name: label }).click();
  await expect.poll(() => page.getByRole("combobox", { name: "Resolution" }).inputValue()).toBe(label);
}

async function chooseCount(page: Page, count: number) {
  await page.getByTestId("image-count").getByText(String(count), { exact: true }).click();
  await expect.poll(() => page.getByRole("radio", { name: String(count) }).isChecked()).toBe(true);
}

describe("playground: image generation and Pegasus generation", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Gene",
      lastName: "Rator",
      label: "generation",
    }));
  });

  afterAll(async () => {
    await session?.close();
  });

  it("generates two 16:9 images with a negative prompt, reuses a row and deletes one", async () => {
    const { page, baseUrl } = session;
    const { priceInfo } = await playgroundHistory(page, baseUrl, projectId, GENERATION);

    await page.goto("/playground/image-generation");
    await page.getByRole("heading", { name: "Image Generation" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();

    // A random prompt is filled in on load, with its counter out of 1000.
    const prompt = page.getByRole("textbox", { name: "Prompt", exact: true });
    const counter = page.getByTestId("prompt-counter");
    const loaded = await prompt.inputValue();
    expect(RANDOM_PROMPTS).toContain(loaded);
    expect(await counter.textContent()).toBe(`${loaded.length}/${PROMPT_MAX_LENGTH}`);
    expect(await prompt.getAttribute("maxlength")).toBe(String(PROMPT_MAX_LENGTH));
    await page.getByRole("button", { name: "Random Prompt" }).click();
    const shuffled = await prompt.inputValue();
    expect(shuffled).not.toBe(loaded);
    expect(RANDOM_PROMPTS).toContain(shuffled);

    // Defaults: negative prompt on with its own box, one image, 1024x1024 (1:1), price for one image.
    const useNegative = page.getByRole("checkbox", { name: "Use Negative Prompt" });
    expect(await useNegative.isChecked()).toBe(true);
    const negative = page.getByRole("textbox", { name: "Negative Prompt" });
    await negative.waitFor();
    expect(await page.getByTestId("negative-prompt-counter").textContent()).toBe("0/1000");
    expect(await page.getByRole("radio", { name: "1" }).isChecked()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Resolution" }).inputValue()).toBe("1024x1024 (1:1)");
    await expect.poll(() => page.getByTestId("price-line").textContent()).toBe(charged(priceInfo.price, 1));

    // Generate needs a prompt that is not only spaces.
    const generate = page.getByRole("button", { name: "Generate", exact: true });
    expect(await generate.isDisabled()).toBe(false);
    await prompt.fill("");
    expect(await counter.textContent()).toBe("0/1000");
    expect(await generate.isDisabled()).toBe(true);
    await prompt.fill("   ");
    expect(await generate.isDisabled()).toBe(true);
    await session.screenshot("playground-generation-01-empty-prompt");

    const text = "A lighthouse on a cliff at dusk, seen from the sea";
    await prompt.fill(text);
    expect(await counter.textContent()).toBe(`${text.length}/1000`);
    await negative.fill("blurry, watermark");
    expect(await page.getByTestId("negative-prompt-counter").textContent()).toBe("17/1000");
    await chooseCount(page, 2);
    await chooseResolution(page, "1024x576 (16:9)");
    await expect.poll(() => page.getByTestId("price-line").textContent()).toBe(charged(priceInfo.price, 2));
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);
    await session.screenshot("playground-generation-02-ready");

    await generate.click();
    // Two parallel calls, one row each.
    await expect.poll(() => historyRows(page).count()).toBe(2);
    await expect.poll(() => historyRows(page, "done").count(), { timeout: 60_000 }).toBe(2);

    const call = await lastModelCall("image-generation");
    expect(call.fields).toMatchObject({
      prompt: text,
      negative_prompt: "blurry, watermark",
      width: "1024",
      height: "576",
    });
    const stored = await playgroundHistory(page, baseUrl, projectId, GENERATION);
    expect(stored.requests).toHaveLength(2);
    for (const request of stored.requests) {
      expect(request.request_data.body).toMatchObject({
        prompt: text,
        negative_prompt: "blurry, watermark",
        width: 1024,
        height: 576,
      });
    }

    // Each row shows the generated picture (no Original) and its prompt and size.
    const first = historyRows(page, "done").first();
    expect(await first.getByRole("img", { name: "Original" }).count()).toBe(0);
    await expectImageLoaded(first.getByRole("img", { name: "Result" }));
    expect(await first.getByTestId("row-prompt").textContent()).toContain(text);
    expect(await first.getByTestId("row-prompt").textContent()).toContain("1024x576 (16:9)");
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-generation-03-two-results");

    // Reuse puts the prompt, the negative prompt and the size back.
    await prompt.fill("Something else entirely");
    await useNegative.uncheck();
    await chooseResolution(page, "576x1024 (9:16)");
    await first.getByRole("button", { name: "Reuse" }).click();
    expect(await prompt.inputValue()).toBe(text);
    expect(await useNegative.isChecked()).toBe(true);
    expect(await negative.inputValue()).toBe("blurry, watermark");
    expect(await page.getByRole("combobox", { name: "Resolution" }).inputValue()).toBe("1024x576 (16:9)");

    // Delete one row through the Delete Image confirmation.
    await deleteHistoryRow(page, first);
    await expect.poll(() => historyRows(page).count()).toBe(1);
    expect((await playgroundHistory(page, baseUrl, projectId, GENERATION)).requests).toHaveLength(1);

    // Without the checkbox the negative prompt is not sent.
    await chooseCount(page, 1);
    await useNegative.uncheck();
    await generate.click();
    await expect.poll(() => historyRows(page, "done").count(), { timeout: 60_000 }).toBe(2);
    const withoutNegative = await lastModelCall("image-generation");
    expect(withoutNegative.fields.negative_prompt).toBeUndefined();
    expect(withoutNegative.fields).toMatchObject({ prompt: text, width: "1024", height: "576" });
  });

  it("marks the row Generation Error without a dialog when the model fails", async () => {
    const { page } = session;
    await page.goto("/playground/image-generation");
    await page.getByRole("heading", { name: "Image Generation" }).waitFor();
    await page.getByText(EMPTY_HISTORY).or(historyRows(page).first()).waitFor();

    await failNextModelCall("image-generation", 500, "The GPU ran out of memory.");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    const failed = historyRows(page, "error");
    await failed.waitFor({ timeout: 60_000 });
    expect(await failed.getByText("Generation Error").count()).toBeGreaterThan(0);
    expect(await failed.getByRole("button", { name: "Download" }).isDisabled()).toBe(true);
    // Generation failures show no dialog.
    await page.waitForTimeout(500);
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-generation-04-generation-error");
  });

  it("asks for an AI Clone, then generates with a trained clone at the clone price", async () => {
    const { page, baseUrl } = session;
    const { priceInfo } = await playgroundHistory(page, baseUrl, projectId, PEGASUS);
    expect(priceInfo.priceIdentity).toBeDefined();
    const identityPrice = priceInfo.priceIdentity ?? 0;

    await page.goto("/playground/pegasus-generation");
    await page.getByRole("heading", { name: "Pegasus Generation" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const prompt = page.getByRole("textbox", { name: "Prompt", exact: true });
    expect(RANDOM_PROMPTS).toContain(await prompt.inputValue());
    // The Pegasus call has no negative prompt, so the screen offers none.
    expect(await page.getByRole("checkbox", { name: "Use Negative Prompt" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Use the Basic model" }).getAttribute("href")).toBe(
      "/playground/image-generation",
    );
    await expect.poll(() => page.getByTestId("price-line").textContent()).toBe(charged(priceInfo.price, 1));

    // AI Cloning on with no clone to choose: the dialog, and nothing is sent.
    const useCloning = page.getByRole("checkbox", { name: "Use the AI Cloning" });
    await useCloning.check();
    await expect.poll(() => page.getByTestId("price-line").textContent()).toBe(charged(identityPrice, 1));
    await page.getByTestId("identity-picker").getByText("No AI Clones yet").waitFor();
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    const dialog = await waitForDialog(page, "AI Clone not Selected", {
      message: "Please select an AI Clone from the list.",
    });
    await session.screenshot("playground-generation-05-clone-not-selected");
    await closeDialog(dialog);
    expect(await historyRows(page).count()).toBe(0);

    // A trained clone is chosen by default once the list loads.
    const clone = await trainClone(page, baseUrl, projectId, "Gene's Clone");
    await page.reload();
    await page.getByRole("heading", { name: "Pegasus Generation" }).waitFor();
    const picker = page.getByTestId("identity-picker");
    await picker.getByText("Gene's Clone").waitFor();
    await useCloning.check();
    await picker.click();
    const option = page.getByRole("option", { name: /Gene's Clone/ });
    await option.waitFor();
    const thumbnail = option.getByRole("img", { name: "Gene's Clone" });
    expect(await thumbnail.getAttribute("src")).toMatch(/_thumb$/);
    await session.screenshot("playground-generation-06-clone-picker");
    await option.click();
    await option.waitFor({ state: "hidden" });

    await page.getByRole("checkbox", { name: "Use Artistic Checkpoint" }).check();
    await prompt.fill("A portrait in a sunflower field at golden hour");
    await chooseCount(page, 2);
    await expect.poll(() => page.getByTestId("price-line").textContent()).toBe(charged(identityPrice, 2));
    await session.screenshot("playground-generation-07-pegasus-ready");

    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => historyRows(page, "done").count(), { timeout: 60_000 }).toBe(2);
    const call = await lastModelCall("pegasus-generation");
    expect(call.fields).toMatchObject({
      prompt: "A portrait in a sunflower field at golden hour",
      identity_id: clone.identity_id,
      artistic: "true",
      width: "1024",
      height: "1024",
    });
    expect(call.fields.negative_prompt).toBeUndefined();
    expect(call.identityRequestId).toBe(clone.id);

    // A history row's Show API Call carries the clone's request id header.
    const first = historyRows(page, "done").first();
    expect(await first.getByTestId("row-prompt").textContent()).toContain("AI Clone");
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("playground-generation-08-pegasus-results");
    await first.getByRole("button", { name: "Show API Call" }).click();
    const details = page.getByRole("dialog", { name: "API Call Details" });
    await details.waitFor();
    expect(await details.textContent()).toContain(clone.id);
    expect(await details.textContent()).toContain(clone.identity_id);
    await closeDialog(details);

    await deleteHistoryRow(page, first);
    await expect.poll(() => historyRows(page).count()).toBe(1);
  });
});

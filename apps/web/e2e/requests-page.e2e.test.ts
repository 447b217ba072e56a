import {
  formatCost,
  imageGenerationFeature,
  PLAYGROUND_CALLER,
  REQUEST_STATUS_LABELS,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { post } from "./funded-owner";
import { expectPhoneLayout } from "./layout";
import { historyRows, openFundedPlayground, playgroundHistory } from "./playground-helpers";

/**
 * A funded owner generates an image in the playground and another with an API key, opens Home's
 * Requests view and finds both calls, newest first, with the caller, status, cost and result; the key
 * filter narrows the list; and the same view reads as cards on a phone.
 */
describe("the Requests view", () => {
  let session: BrowserSession;
  let phone: BrowserSession | undefined;
  let projectId: string;

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Rhea",
      lastName: "Quest",
      label: "requests-page",
    }));
  });

  afterAll(async () => {
    await phone?.close();
    await session?.close();
  });

  it("lists a playground call and a key's call with their caller, cost and result, and filters by key", async () => {
    const { page, baseUrl } = session;
    await page.goto(imageGenerationFeature.playgroundRoute);
    await page.getByRole("heading", { name: imageGenerationFeature.name }).waitFor();
    await page.getByRole("textbox", { name: "Prompt", exact: true }).fill("A lighthouse at dusk");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => historyRows(page, "done").count(), { timeout: 60_000 }).toBe(1);
    const [played] = (await playgroundHistory(page, baseUrl, projectId, imageGenerationFeature.endpoint))
      .requests;
    expect(played?.response_data.file).toBeTruthy();

    const key = await post<{ apiKey: { content: string } }>(page, baseUrl, "/v1/users/api-keys/insert", {
      projectId,
      apiKeyName: "Nightly job",
    });
    const byKey = await page.request.post(`${baseUrl}${imageGenerationFeature.endpoint}`, {
      headers: { authorization: `Bearer ${key.apiKey.content}` },
      multipart: { prompt: "A harbour at dawn", width: "512", height: "512" },
    });
    expect(byKey.ok(), await byKey.text()).toBe(true);
    const keyCall = (await byKey.json()) as { cost: number };

    await page.goto("/home");
    await page.getByRole("tab", { name: "Requests" }).click();
    await page.waitForURL("**/home/requests");
    const rows = page.getByTestId("request-row");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const newest = rows.nth(0);
    const older = rows.nth(1);
    expect(await newest.textContent()).toContain("Nightly job");
    expect(await newest.textContent()).toContain(formatCost(keyCall.cost));
    expect(await older.textContent()).toContain(PLAYGROUND_CALLER);
    expect(await older.textContent()).toContain(imageGenerationFeature.name);
    expect(await older.textContent()).toContain(REQUEST_STATUS_LABELS.done);
    expect(await older.textContent()).toContain(formatCost(played?.cost ?? Number.NaN));
    const result = older.getByRole("link", { name: /^Result of the/ });
    expect(await result.getAttribute("href")).toBe(played?.response_data.file);
    const image = await page.request.get(`${baseUrl}${played?.response_data.file}`);
    expect(image.headers()["content-type"]).toMatch(/^image\//);
    await session.screenshot("requests-01-both-calls");

    // Keyboard only: the key filter opens with Enter and takes the console's own calls with the arrows.
    const keyFilter = page.getByRole("combobox", { name: "API key" });
    await keyFilter.focus();
    await page.keyboard.press("Enter");
    const playgroundOption = page.getByRole("option", { name: PLAYGROUND_CALLER });
    await playgroundOption.waitFor();
    // The arrows move from the option the list marked on opening, which it does a moment after it
    // shows (late on a loaded machine): go down until Playground is the marked one, then take it.
    await vi.waitFor(
      async () => {
        if ((await playgroundOption.getAttribute("data-combobox-selected")) === null) {
          await page.keyboard.press("ArrowDown");
        }
        expect(await playgroundOption.getAttribute("data-combobox-selected")).not.toBeNull();
      },
      { timeout: 15_000, interval: 300 },
    );
    await page.keyboard.press("Enter");
    await expect.poll(() => keyFilter.inputValue()).toBe(PLAYGROUND_CALLER);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.nth(0).textContent()).toContain(PLAYGROUND_CALLER);
    await session.screenshot("requests-02-playground-only");
  });

  it("shows the calls as cards that fit a phone", async () => {
    phone = await openBrowser({ phone: true });
    await phone.context.addCookies(await session.context.cookies());
    await skipWelcomePopup(phone.page);
    await phone.page.goto("/home/requests");
    const cards = phone.page.getByTestId("request-row");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);
    expect(await cards.nth(0).evaluate((element) => element.tagName)).toBe("LI");
    await phone.page.waitForTimeout(300);
    await expectPhoneLayout(phone.page, "requests");
    await phone.screenshot("requests-03-phone");
  });
});

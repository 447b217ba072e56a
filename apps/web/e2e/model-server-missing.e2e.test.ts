import {
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURES,
  MODEL_SERVERS_DOCS_PATH,
  NEEDS_MODEL_SERVER_BADGE,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { signUpOwner } from "./funded-owner";
import { type ConsoleServer, startConsoleServer } from "./global-setup";
import { expectPhoneLayout } from "./layout";
import { MODEL_SERVER_FEATURES } from "./model-server";

const NEEDING_A_SERVER = FEATURES.filter((feature) =>
  (MODEL_SERVER_FEATURES as readonly string[]).includes(feature.id),
);

/**
 * A deployment as `npm start` leaves it, with the builtin engine and no model server: the six features
 * that need one say so in the sidebar, on their screens (with a way for whoever runs the deployment to
 * learn how to connect one) and in the API reference.
 */
describe("a deployment without a model server", () => {
  let server: ConsoleServer;
  let desktop: BrowserSession;
  let phone: BrowserSession;

  beforeAll(async () => {
    server = await startConsoleServer({ ENGINE_WORKERS: "1" });
    desktop = await openBrowser({ baseUrl: server.baseUrl });
    phone = await openBrowser({ baseUrl: server.baseUrl, phone: true });
    for (const session of [desktop, phone]) {
      await session.context.addInitScript(() => localStorage.setItem("welcomePopupSeen", "true"));
      await signUpOwner(session.page, server.baseUrl, {
        firstName: "Nia",
        lastName: "Noserver",
        label: "noserver",
      });
    }
  });

  afterAll(async () => {
    await desktop?.close();
    await phone?.close();
    await server?.close();
  });

  it("marks the six features in the sidebar and explains them on their screens", async () => {
    const { page } = desktop;
    await page.goto("/playground/image-generation");
    await page.getByRole("heading", { name: "Image Generation", level: 2 }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    const marked = nav.getByLabel(NEEDS_MODEL_SERVER_BADGE, { exact: true });
    await expect.poll(() => marked.count()).toBe(NEEDING_A_SERVER.length);
    for (const feature of NEEDING_A_SERVER) {
      const link = nav.locator(`a[href="${feature.playgroundRoute}"]`);
      expect(await link.getByLabel(NEEDS_MODEL_SERVER_BADGE, { exact: true }).count(), feature.name).toBe(1);
    }
    // A feature the builtin engine runs carries no such mark.
    expect(
      await nav
        .locator('a[href="/playground/image-background-removal"]')
        .getByTestId("unavailable-badge")
        .count(),
    ).toBe(0);

    const notice = page.getByTestId("feature-unavailable");
    await notice.getByText(FEATURE_NEEDS_MODEL_SERVER).waitFor();
    expect(await notice.textContent()).not.toContain("No model provider is configured");
    const guideLink = notice.getByRole("link", { name: "How to connect a model server" });
    expect(await guideLink.getAttribute("href")).toBe(MODEL_SERVERS_DOCS_PATH);
    expect(await page.getByRole("button", { name: "Generate" }).isDisabled()).toBe(true);
    await desktop.screenshot("model-server-missing-01-playground");

    const [reference] = await Promise.all([page.context().waitForEvent("page"), guideLink.click()]);
    await reference.getByRole("heading", { name: "Model servers", level: 2 }).waitFor();
    expect(new URL(reference.url()).hash).toBe("#model-servers");
    await reference.close();
  });

  it("badges the same six endpoints in the API reference, linked to the model-server guide, and documents downloads", async () => {
    const { page } = desktop;
    await page.goto("/docs");
    await page.locator("section.operation").first().waitFor();
    const badges = page.locator("section.operation h2 .badge");
    expect(await badges.allInnerTexts()).toEqual(NEEDING_A_SERVER.map(() => "Needs a model server"));
    for (const feature of NEEDING_A_SERVER) {
      const heading = page.locator("section.operation h2", { hasText: feature.name }).first();
      expect(await heading.locator(".badge").getAttribute("href"), feature.name).toBe("#model-servers");
    }
    // Downloading results with the key is documented beside the features.
    const download = page.locator("#downloadFile");
    expect(await download.locator(".endpoint").innerText()).toContain("GET");
    expect(await download.locator(".endpoint code").innerText()).toBe(
      "/v1/files/{organizationId}/{projectId}/{name}",
    );
    expect(await download.locator("table.errors").innerText()).toContain("another project");
    await download.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await desktop.screenshot("model-server-missing-03-docs-download", { fullPage: false });

    await page.locator("section.operation h2 .badge").first().click();
    const guide = page.getByRole("heading", { name: "Model servers", level: 2 });
    await guide.waitFor();
    expect(new URL(page.url()).hash).toBe("#model-servers");
    // The page scrolls there smoothly; the screenshot waits until the guide is in view.
    await expect
      .poll(() => guide.evaluate((heading) => heading.getBoundingClientRect().bottom < window.innerHeight), {
        timeout: 10_000,
      })
      .toBe(true);
    await page.waitForTimeout(300);
    await desktop.screenshot("model-server-missing-02-docs-guide", { fullPage: false });
  });

  it("shows the marks and the explanation on a phone too", async () => {
    const { page } = phone;
    await page.goto("/playground/reimagine");
    await page.getByTestId("feature-unavailable").getByText(FEATURE_NEEDS_MODEL_SERVER).waitFor();
    await expectPhoneLayout(page, "reimagine without a model server");
    await phone.screenshot("phone-model-server-missing-playground");
    await page.getByRole("button", { name: "Open navigation" }).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect
      .poll(() => nav.getByLabel(NEEDS_MODEL_SERVER_BADGE, { exact: true }).count())
      .toBe(NEEDING_A_SERVER.length);
    await page.waitForTimeout(300);
    await phone.screenshot("phone-model-server-missing-navigation", { fullPage: false });
  });
});

import {
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURES,
  MODEL_SERVERS_DOCS_PATH,
  NEEDS_MODEL_SERVER_BADGE,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { type ConsoleServer, startConsoleServer } from "./console-server";
import { signUpOwner } from "./funded-owner";
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
    await expect.poll(() => marked.count(), { timeout: 15_000 }).toBe(NEEDING_A_SERVER.length);
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
    await reference.getByRole("heading", { name: "Model servers" }).first().waitFor();
    expect(`/docs${new URL(reference.url()).hash}`).toBe(MODEL_SERVERS_DOCS_PATH);
    await reference.close();
  });

  it("badges the same six endpoints in the API reference, linked to the model-server guide, and documents downloads", async () => {
    const { page } = desktop;
    const document = (await (await page.request.get("/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { tags: string[]; "x-badges"?: { name: string }[] }>>;
    };
    // Scalar (the reference page) anchors an operation as #tag/<tag slug>/<METHOD><path>.
    const anchorOf = (path: string, method: "get" | "post") => {
      const tag = document.paths[path]![method]!.tags[0]!.toLowerCase().replaceAll(" ", "-");
      return `tag/${tag}/${method.toUpperCase()}${path}`;
    };
    const badged = Object.entries(document.paths)
      .filter(([, item]) => item.post?.["x-badges"]?.some((badge) => badge.name === NEEDS_MODEL_SERVER_BADGE))
      .map(([path]) => path);
    expect(badged.sort()).toEqual(NEEDING_A_SERVER.map((feature) => feature.endpoint).sort());

    for (const [index, feature] of NEEDING_A_SERVER.entries()) {
      const anchor = anchorOf(feature.endpoint, "post");
      await page.goto(`/docs#${anchor}`);
      const operation = page.locator(`section[id$="${anchor}"]`);
      await operation.getByText(NEEDS_MODEL_SERVER_BADGE, { exact: true }).first().waitFor();
      await operation.getByText(FEATURE_NEEDS_MODEL_SERVER).first().waitFor();
      const guide = operation.getByRole("link", { name: "Model servers" }).first();
      expect(await guide.getAttribute("href"), feature.name).toBe(MODEL_SERVERS_DOCS_PATH);
      if (index === 0) {
        await operation.scrollIntoViewIfNeeded();
        await desktop.screenshot("model-server-missing-03-docs-badge", { fullPage: false });
        await guide.click();
        const heading = page.getByRole("heading", { name: "Model servers" }).first();
        await heading.waitFor();
        await expect
          .poll(() => heading.evaluate((node) => node.getBoundingClientRect().bottom < window.innerHeight), {
            timeout: 10_000,
          })
          .toBe(true);
        expect(`/docs${new URL(page.url()).hash}`).toBe(MODEL_SERVERS_DOCS_PATH);
        await desktop.screenshot("model-server-missing-02-docs-guide", { fullPage: false });
      }
    }

    // Downloading results with the key is documented beside the features.
    const downloadPath = "/v1/files/{organizationId}/{projectId}/{name}";
    const download = anchorOf(downloadPath, "get");
    await page.goto(`/docs#${download}`);
    const section = page.locator(`section[id$="${download}"]`);
    await section.getByText(downloadPath).first().waitFor();
    await expect.poll(() => section.innerText()).toContain("another project");
    await desktop.screenshot("model-server-missing-04-docs-download", { fullPage: false });
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

import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { CHANGES_SAVED } from "@prism/contract";
import sharp from "sharp";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { type Me, post, signUpFundedOwner } from "./funded-owner";

/** A webhook receiver the journey starts: it records what it gets and answers 200. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/prism-hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("webhooks end to end", () => {
  let session: BrowserSession;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    session = await openBrowser();
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await session?.close();
    await receiver?.close();
  });

  it("adds an endpoint in the console, runs a feature, and sees the signed delivery in the log", async () => {
    const { page, baseUrl } = session;
    await signUpFundedOwner(page, baseUrl, { firstName: "Wes", lastName: "Hook", label: "webhooks" });
    await skipWelcomePopup(page);

    await page.goto("/organization/webhooks");
    await page.getByText("No endpoints yet").waitFor();
    await session.screenshot("webhooks-01-empty");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(receiver.url);
    await session.screenshot("webhooks-02-add-dialog", { fullPage: false });
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const secretField = page.getByRole("textbox", { name: "Signing secret" });
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await session.screenshot("webhooks-03-secret-once", { fullPage: false });
    await page.getByRole("button", { name: "Done" }).click();
    const endpoint = page.getByRole("region", { name: `Endpoint ${receiver.url}` });
    await endpoint.waitFor();

    const me = await post<Me>(page, baseUrl, "/v1/users/me");
    const projectId = me.organizations[0]?.projects[0]?.id;
    const { apiKey } = await post<{ apiKey: { content: string } }>(
      page,
      baseUrl,
      "/v1/users/api-keys/insert",
      {
        projectId,
        apiKeyName: "Webhook journey",
      },
    );
    // A photo with a subject: the builtin engine refuses, uncharged, a picture with nothing to cut out.
    const png = await sharp(
      readFileSync(resolve(import.meta.dirname, "../../../fixtures/images/astronaut.png")),
    )
      .resize(96)
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
    const called = await fetch(`${baseUrl}/v1/images/background-removal`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey.content}` },
      body: form,
    });
    expect(called.status).toBe(200);
    const requestId = ((await called.json()) as { request: { id: string } }).request.id;

    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const [delivered] = receiver.received;
    const event = new Webhook(secret).verify(delivered?.body ?? "", {
      "webhook-id": String(delivered?.headers["webhook-id"]),
      "webhook-timestamp": String(delivered?.headers["webhook-timestamp"]),
      "webhook-signature": String(delivered?.headers["webhook-signature"]),
    }) as { type: string; data: { request_id: string } };
    expect(event).toMatchObject({ type: "request.succeeded", data: { request_id: requestId } });

    await endpoint.getByRole("button", { name: "Show deliveries" }).click();
    const log = endpoint.getByRole("table", { name: "Deliveries" });
    const row = log.locator('[data-event="request.succeeded"][data-status="succeeded"]');
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain("200");
    await session.screenshot("webhooks-04-delivery-log");

    await endpoint.getByRole("button", { name: "Send test event" }).click();
    await log.locator('[data-event="webhook.test"][data-status="succeeded"]').waitFor({ timeout: 20_000 });
    await row.getByRole("button", { name: "Resend" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(3);
    expect(receiver.received[2]?.headers["webhook-id"]).toBe(delivered?.headers["webhook-id"]);
    await session.screenshot("webhooks-05-test-and-resend");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page
      .getByRole("region", { name: `Endpoint ${receiver.url}` })
      .getByRole("button", { name: "Show deliveries" })
      .click();
    await page.getByRole("list", { name: "Deliveries" }).waitFor();
    await session.screenshot("webhooks-06-phone");
  });

  it("saves a low-balance alert and a monthly budget on the Payments page", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/organization/payments");
    const alerts = page.getByRole("region", { name: "Alerts" });
    await alerts.getByRole("textbox", { name: "Low balance alert" }).fill("5");
    await alerts.getByRole("textbox", { name: "Monthly budget" }).fill("50");
    await alerts.getByLabel("Stop calls at 100 % of the budget").check();
    await alerts.getByRole("button", { name: "Save" }).click();
    await page.getByText(CHANGES_SAVED).first().waitFor();
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByRole("region", { name: "Alerts" })
          .getByRole("textbox", { name: "Monthly budget" })
          .inputValue(),
      )
      .toBe("$50");
    expect(
      await page
        .getByRole("region", { name: "Alerts" })
        .getByLabel("Stop calls at 100 % of the budget")
        .isChecked(),
    ).toBe(true);
    await session.screenshot("webhooks-07-payments-alerts");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { type ConsoleServer, startConsoleServer } from "./console-server";
import { post, signUpFundedOwner } from "./funded-owner";
import { MODEL_SERVER_FEATURES, type ModelServer, startModelServer } from "./model-server";
import { EMPTY_HISTORY, historyRows } from "./playground-helpers";

/**
 * Issue 29 in the browser: a deployment whose model server takes one call at a time. One generation
 * runs (held at the model server), a second waits in the queue and shows its position; both survive a
 * reload; the waiting one is canceled (refunded, never sent to the model); the running one finishes
 * once the model answers.
 */
describe("playground: calls on the queue", () => {
  let model: ModelServer;
  let server: ConsoleServer;
  let session: BrowserSession;

  const control = (path: string, body?: unknown) =>
    fetch(`${model.url}/__control/${path}`, {
      method: body ? "POST" : "GET",
      ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    model = await startModelServer();
    server = await startConsoleServer({
      MODEL_SERVER_URL: model.url,
      MODEL_SERVER_FEATURES: MODEL_SERVER_FEATURES.join(","),
      MODEL_SERVER_CONCURRENCY: "1",
    });
    session = await openBrowser({ baseUrl: server.baseUrl });
    await signUpFundedOwner(session.page, server.baseUrl, {
      firstName: "Quinn",
      lastName: "Queue",
      label: "queue",
    });
    await skipWelcomePopup(session.page);
  });

  afterAll(async () => {
    await control("release", { feature: "image-generation" }).catch(() => undefined);
    await session?.close();
    await server?.close();
    await model?.close();
  });

  const balance = async () =>
    (await post<{ organizations: { balance: number }[] }>(session.page, server.baseUrl, "/v1/users/me"))
      .organizations[0]?.balance ?? 0;

  it("queues a call behind a running one, keeps both through a reload, cancels the waiting one and finishes the other", async () => {
    const { page } = session;
    await control("hold", { feature: "image-generation" });
    await page.goto("/playground/image-generation");
    await page.getByRole("heading", { name: "Image Generation" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    const before = await balance();

    // Two images: two calls at once, and the model server takes one at a time.
    await page.getByTestId("image-count").getByText("2", { exact: true }).click();
    await page.getByRole("button", { name: "Generate" }).click();
    await expect
      .poll(async () => ((await (await control("held/image-generation")).json()) as { held: number }).held, {
        timeout: 30_000,
      })
      .toBe(1);
    const queued = historyRows(page, "queued");
    await queued.waitFor({ timeout: 30_000 });
    await expect.poll(() => queued.getByTestId("queue-position").textContent()).toBe("Queued (position 1)");
    await historyRows(page, "generating").waitFor();
    await session.screenshot("playground-queue-01-running-and-queued");

    // Both calls are the server's: a reload shows them as they are, and follows them.
    await page.reload();
    await historyRows(page, "queued").waitFor({ timeout: 30_000 });
    const running = historyRows(page, "generating");
    await running.waitFor();
    await expect.poll(() => running.getByTestId("elapsed-timer").textContent()).toMatch(/^\d+\.\ds$/);
    // Both are paid for on submission.
    expect(await balance()).toBeLessThan(before);

    await historyRows(page, "queued").getByRole("button", { name: "Cancel" }).click();
    const canceled = historyRows(page, "canceled");
    await canceled.waitFor({ timeout: 30_000 });
    await session.screenshot("playground-queue-02-canceled");

    await control("release", { feature: "image-generation" });
    const done = historyRows(page, "done");
    await done.waitFor({ timeout: 30_000 });
    await done.getByRole("img", { name: "Result" }).waitFor();
    expect(await historyRows(page).count()).toBe(2);
    // Only the finished call is charged: the canceled one was refunded and never reached the model.
    const price = before - (await balance());
    expect(price).toBeGreaterThan(0);
    expect(price).toBeLessThan(0.05);
    expect(((await (await control("held/image-generation")).json()) as { held: number }).held).toBe(0);
    await session.screenshot("playground-queue-03-done");
  }, 180_000);
});

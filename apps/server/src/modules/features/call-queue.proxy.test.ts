import type { RequestDetail } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "../../../test/images";
import {
  openStorage,
  type ProcessStorage,
  readMoney,
  type SeededAccount,
  seedAccount,
} from "../../../test/process-fixtures";
import { eventually, type QueueModelServer, startQueueModelServer } from "../../../test/queue-model-server";
import { startReverseProxy } from "../../../test/reverse-proxy";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";

/**
 * Issue 29's proxy case: behind a reverse proxy that gives up after three seconds (nginx's
 * proxy_read_timeout, set short), a call the model takes eight seconds for fails at the proxy when
 * made synchronously, and completes when made asynchronously, its result fetched through the proxy.
 */
describe("a call longer than the proxy's read timeout", () => {
  let model: QueueModelServer;
  let storage: ProcessStorage;
  let account: SeededAccount;
  let server: ServerProcess;
  let proxy: Awaited<ReturnType<typeof startReverseProxy>>;

  beforeAll(async () => {
    model = await startQueueModelServer({ delayMs: 8_000 });
    storage = await createProcessStorage();
    account = await seedAccount(storage, 1_000_000n);
    server = await startServerProcess({
      ...storage.env,
      ...model.env("image-generation", 2),
      TRUST_PROXY: "true",
    });
    proxy = await startReverseProxy(server.url, { readTimeoutMs: 3_000 });
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await server?.stop("SIGKILL");
    await storage?.remove();
    await model?.close();
  });

  const submit = (headers: Record<string, string>) => {
    const body = multipart([
      { name: "prompt", value: "a slow lighthouse" },
      { name: "width", value: "256" },
      { name: "height", value: "256" },
    ]);
    return fetch(`${proxy.url}/v1/images/generation`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.apiKey}`, "content-type": body.contentType, ...headers },
      body: body.payload,
    });
  };

  it("fails at the proxy synchronously, and completes asynchronously with its result fetched through the proxy", async () => {
    const synchronous = await submit({});
    expect(synchronous.status).toBe(504);
    expect(synchronous.headers.get("content-type")).toContain("text/html");

    const startedAt = Date.now();
    const accepted = await submit({ prefer: "respond-async" });
    expect(accepted.status, `after ${Date.now() - startedAt} ms: ${await accepted.clone().text()}`).toBe(202);
    const detail = (await accepted.json()) as RequestDetail;
    let current = detail;
    await eventually(
      async () => {
        const polled = await fetch(`${proxy.url}${detail.urls.get}`, {
          headers: { authorization: `Bearer ${account.apiKey}` },
        });
        expect(polled.status).toBe(200);
        current = (await polled.json()) as RequestDetail;
        return current.status === "succeeded";
      },
      "the asynchronous call to succeed",
      30_000,
    );
    const file = await fetch(`${proxy.url}${current.response_data.file}`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");

    // The synchronous call went on behind the proxy and was charged: the client never saw its answer,
    // which is why docs/deploy.md tells API clients behind proxies to call asynchronously.
    await eventually(async () => {
      const database = openStorage(storage);
      try {
        const money = await readMoney(database.db, account.organizationId);
        return money.rows.length === 2 && money.rows.every((row) => row.status === "done");
      } finally {
        await database.close();
      }
    }, "both calls to end");
  }, 90_000);
});

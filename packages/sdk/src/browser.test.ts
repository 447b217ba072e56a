import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumPath } from "@prism/test-support/chromium";
import { type BrowserContext, chromium } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUT_PNG, type PrismServer, RESULT_PNG, startPrismServer } from "../test/prism-server";

/**
 * The built package in Chromium: its files are served under the deployment's origin (the browser
 * fetches them from the test, everything else from the real server), so the page calls the API the
 * way a same-origin web app would, with the browser's own fetch, FormData, Blob and WebCrypto.
 */

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const PAGE_PREFIX = "/sdk-in-a-browser/";

/**
 * What the page runs, as source text: the test runner rewrites `import()` in the test's own functions,
 * so the page's code is not one of them.
 */
const IN_THE_PAGE = `async ({ prefix, apiKey, png, webhook }) => {
  const sdk = await import(prefix + "index.js");
  const prism = new sdk.Prism({ apiKey, baseUrl: location.origin });
  const image = new Blob([new Uint8Array(png)], { type: "image/png" });
  const result = await prism.imageBackgroundRemoval({ image });
  const file = await result.download();
  const event = await sdk.verifyWebhook(webhook.body, new Headers(webhook.headers), webhook.secret);
  const tampered = await sdk
    .verifyWebhook(webhook.body + " ", webhook.headers, webhook.secret)
    .then(() => "accepted", (error) => error.name);
  const refusal = await new sdk.Prism({ apiKey: "psk_wrong", baseUrl: location.origin })
    .imageBackgroundRemoval({ image })
    .catch((error) => [error.name, error.status, error.code]);
  return { cost: result.cost, bytes: Array.from(new Uint8Array(await file.arrayBuffer())), event, tampered, refusal };
}`;

let server: PrismServer;
let outDir: string;
let profileDir: string;
let context: BrowserContext;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "prism-sdk-dist-"));
  execFileSync(
    process.execPath,
    [`${repoRoot}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json", "--outDir", outDir],
    {
      cwd: packageDir,
    },
  );
  server = await startPrismServer();
  profileDir = mkdtempSync(join(tmpdir(), "prism-sdk-chromium-"));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  await context.route(`${server.baseUrl}${PAGE_PREFIX}**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(PAGE_PREFIX.length);
    if (name === "index.html") {
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>SDK</title>" });
    }
    return route.fulfill({
      contentType: "text/javascript",
      body: readFileSync(join(outDir, name.replace(/[^a-z.]/gi, ""))),
    });
  });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  for (const dir of [outDir, profileDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("in a browser", () => {
  it("loads as an ES module, calls a feature with a Blob, downloads the result and verifies a webhook", async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.baseUrl}${PAGE_PREFIX}index.html`);
    const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
    const body = JSON.stringify({ type: "request.completed", data: { id: "r1" } });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", at, body),
    };
    const args = {
      prefix: PAGE_PREFIX,
      apiKey: server.apiKey,
      png: Array.from(INPUT_PNG),
      webhook: { body, headers, secret },
    };
    const answer = (await page.evaluate(`(${IN_THE_PAGE})(${JSON.stringify(args)})`)) as {
      cost: number;
      bytes: number[];
      event: unknown;
      tampered: string;
      refusal: unknown[];
    };
    expect(answer.cost).toBe(0.01);
    expect(Buffer.from(answer.bytes)).toEqual(RESULT_PNG);
    expect(answer.event).toEqual(JSON.parse(body));
    expect(answer.tampered).toBe("WebhookVerificationError");
    expect(answer.refusal).toEqual(["PrismError", 401, "invalid-api-key"]);
  });
});

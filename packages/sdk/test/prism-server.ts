import { findFreePort } from "@prism/test-support/free-port";
import sharp from "sharp";
import { fundedAccount } from "../../../apps/server/test/key-fixtures";
import { type LocalServer, sendJson, startLocalServer } from "../../../apps/server/test/local-http-server";
import { createTestApp, type TestApp } from "../../../apps/server/test/test-app";
import { pcmToWav } from "../../engine/src/lib/wav";

/**
 * The real server for the SDK's tests: apps/server's app in-process (PGlite, or a fresh PostgreSQL
 * database when DATABASE_URL is set) listening on a loopback port, so the SDK talks to it over HTTP
 * with the platform's fetch. Its model server is a local stand-in speaking the model-server protocol
 * (docs/model-server.md), the only third party here.
 */

export const RESULT_PNG = await sharp({
  create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 20, b: 30 } },
})
  .png()
  .toBuffer();

export const INPUT_PNG = await sharp({
  create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 100, b: 50 } },
})
  .png()
  .toBuffer();

/** 16-bit mono PCM WAV of `seconds` of silence (the engine's own WAV writer). */
export function silentWav(seconds = 1, sampleRate = 8_000): Buffer {
  return pcmToWav(Buffer.alloc(seconds * sampleRate * 2), sampleRate);
}

/** What the stand-in model server does: answer after `delayMs`, fail the next `failNext` calls. */
export interface ModelControl {
  delayMs: number;
  failNext: number;
  calls: number;
}

export const TRANSCRIPT = { language: "en", segments: [{ start: 0, end: 1, text: "hello from the stub" }] };

function startModelServer(control: ModelControl): Promise<LocalServer> {
  return startLocalServer((request, response) => {
    if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, {});
    if (request.method !== "POST") return sendJson(response, 404, {});
    control.calls++;
    if (control.failNext > 0) {
      control.failNext--;
      return sendJson(response, 500, { message: "model crashed" });
    }
    setTimeout(() => {
      if (request.path === "/speech-to-text") return sendJson(response, 200, TRANSCRIPT);
      if (request.path === "/image-background-removal") {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(RESULT_PNG);
        return;
      }
      sendJson(response, 404, {});
    }, control.delayMs);
  });
}

export interface PrismServer {
  testApp: TestApp;
  baseUrl: string;
  model: ModelControl;
  /** A funded organization's API key (and its account, to read balances and rows). */
  account: Awaited<ReturnType<typeof fundedAccount>>;
  apiKey: string;
  close(): Promise<void>;
}

export async function startPrismServer(
  env: Record<string, string> = {},
  fundsMicros = 10_000_000n,
): Promise<PrismServer> {
  const model: ModelControl = { delayMs: 0, failNext: 0, calls: 0 };
  const modelServer = await startModelServer(model);
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const testApp = await createTestApp({
    MODEL_SERVER_URL: modelServer.url,
    MODEL_SERVER_FEATURES: "image-background-removal,speech-to-text",
    PROVIDER_TIMEOUT_MS: "20000",
    PUBLIC_URL: baseUrl,
    ...env,
  });
  await testApp.app.listen({ port, host: "127.0.0.1" });
  const account = await fundedAccount(testApp, fundsMicros);
  const key = await account.createKey(undefined, "sdk");
  return {
    testApp,
    baseUrl,
    model,
    account,
    apiKey: key.content,
    close: async () => {
      await testApp.close();
      await modelServer.close();
    },
  };
}

/** A fetch that records what the client sent (method, URL, headers), then sends it as is. */
export function recordingFetch(): {
  fetch: typeof fetch;
  sent: { url: string; method: string; headers: Headers }[];
} {
  const sent: { url: string; method: string; headers: Headers }[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push({ url: String(input), method: init?.method ?? "GET", headers: new Headers(init?.headers) });
      return fetch(input, init);
    },
  };
}

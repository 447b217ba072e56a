import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INPUT_PNG,
  type PrismServer,
  RESULT_PNG,
  recordingFetch,
  silentWav,
  startPrismServer,
  TRANSCRIPT,
} from "../test/prism-server";
import { Prism, PrismError } from "./index.js";

const BACKGROUND_REMOVAL_PRICE = 0.01;

let server: PrismServer;
let workDir: string;

beforeAll(async () => {
  server = await startPrismServer();
  workDir = mkdtempSync(join(tmpdir(), "prism-sdk-"));
});

afterAll(async () => {
  await server?.close();
  rmSync(workDir, { recursive: true, force: true });
});

function client(options: Partial<ConstructorParameters<typeof Prism>[0]> = {}) {
  return new Prism({ apiKey: server.apiKey, baseUrl: server.baseUrl, retryDelayMs: 50, ...options });
}

describe("feature calls", () => {
  it("calls a feature with a Buffer, answers the charge and the stored call, and downloads the result", async () => {
    const result = await client().imageBackgroundRemoval({ image: INPUT_PNG });
    expect(result.cost).toBe(BACKGROUND_REMOVAL_PRICE);
    expect(result.request.status).toBe("done");
    expect(result.requestId).toBe(result.request.id);
    expect(result.fileUrl).toMatch(new RegExp(`^${server.baseUrl}/v1/files/`));
    expect(result.replayed).toBe(false);
    const file = await result.download();
    expect(Buffer.from(await file.arrayBuffer())).toEqual(RESULT_PNG);
    expect(file.type).toBe("image/png");
    // The same file by its URL, relative as the console shows it or absolute.
    const relative = new URL(result.fileUrl ?? "").pathname;
    expect(Buffer.from(await (await client().files.get(relative)).arrayBuffer())).toEqual(RESULT_PNG);
  });

  it("takes a file path, a Blob and bytes with a name and type", async () => {
    const path = join(workDir, "photo.png");
    writeFileSync(path, INPUT_PNG);
    const fromPath = await client().imageBackgroundRemoval({ image: path });
    const fromBlob = await client().imageBackgroundRemoval({ image: new Blob([INPUT_PNG]) });
    const fromParts = await client().imageBackgroundRemoval({
      image: { data: new Uint8Array(INPUT_PNG), filename: "photo.png", contentType: "image/png" },
    });
    for (const result of [fromPath, fromBlob, fromParts]) expect(result.request.status).toBe("done");
  });

  it("sends the text fields and answers a transcript typed as one", async () => {
    const result = await client().speechToText({ audio: silentWav(), language: "en" });
    expect(result.body).toEqual(TRANSCRIPT);
    expect(result.body.segments[0]?.text).toBe("hello from the stub");
    expect(result.request.request_data.body).toMatchObject({ language: "en" });
    expect(result.fileUrl).toBeNull();
    await expect(result.download()).rejects.toMatchObject({ code: "no-result-file" });
  });

  it("sends one Idempotency-Key per call; a repeated key is answered again, charged once", async () => {
    const recorder = recordingFetch();
    const prism = client({ fetch: recorder.fetch });
    const first = await prism.imageBackgroundRemoval({ image: INPUT_PNG });
    const second = await prism.imageBackgroundRemoval({ image: INPUT_PNG });
    const keys = recorder.sent
      .filter((sent) => sent.method === "POST")
      .map((s) => s.headers.get("idempotency-key"));
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const key = `sdk-test-${crypto.randomUUID()}`;
    const once = await prism.imageBackgroundRemoval({ image: INPUT_PNG }, { idempotencyKey: key });
    const again = await prism.imageBackgroundRemoval({ image: INPUT_PNG }, { idempotencyKey: key });
    expect(again.replayed).toBe(true);
    expect(again.requestId).toBe(once.requestId);
    expect(again.balance).toBe(once.balance);
    expect(second.balance).toBeCloseTo(first.balance - BACKGROUND_REMOVAL_PRICE, 6);
  });
});

describe("errors", () => {
  it("throws a PrismError with the API's code, message, field and request id, and does not retry a 4xx", async () => {
    const recorder = recordingFetch();
    const error = await client({ fetch: recorder.fetch })
      .speechToText({ audio: silentWav(), language: "xx-not-a-language" as "en" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrismError);
    expect(error).toMatchObject({ status: 400, code: "invalid-input", field: "language" });
    expect((error as PrismError).message.length).toBeGreaterThan(0);
    expect((error as PrismError).requestId).toMatch(/\S+/);
    expect(recorder.sent).toHaveLength(1);
  });

  it("answers a bad key as 401 invalid-api-key, once", async () => {
    const recorder = recordingFetch();
    const error = await client({ apiKey: "sk-not-a-key", fetch: recorder.fetch })
      .imageBackgroundRemoval({ image: INPUT_PNG })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "PrismError", status: 401, code: "invalid-api-key" });
    expect(recorder.sent).toHaveLength(1);
  });

  it("answers an unfunded organization's call as 402 insufficient-balance without retrying", async () => {
    const poor = await startPrismServer({}, 0n);
    try {
      const recorder = recordingFetch();
      const error = await new Prism({ apiKey: poor.apiKey, baseUrl: poor.baseUrl, fetch: recorder.fetch })
        .imageBackgroundRemoval({ image: INPUT_PNG })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 402, code: "insufficient-balance" });
      expect(recorder.sent).toHaveLength(1);
    } finally {
      await poor.close();
    }
  });

  it("refuses to send the key for a URL outside the API's files", async () => {
    await expect(client().files.get("https://elsewhere.example/steal")).rejects.toThrow(TypeError);
  });
});

describe("retries", () => {
  it("retries a 5xx with the same Idempotency-Key until the call succeeds, and the failure is refunded", async () => {
    const recorder = recordingFetch();
    const prism = client({ fetch: recorder.fetch });
    const before = await prism.imageBackgroundRemoval({ image: INPUT_PNG });
    server.model.failNext = 1;
    const result = await prism.imageBackgroundRemoval({ image: INPUT_PNG });
    expect(result.request.status).toBe("done");
    const attempts = recorder.sent.slice(1).filter((sent) => sent.method === "POST");
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.headers.get("idempotency-key")).toBe(attempts[1]?.headers.get("idempotency-key"));
    // The failed attempt was refunded: the balance went down by one call only.
    expect(result.balance).toBeCloseTo(before.balance - BACKGROUND_REMOVAL_PRICE, 6);
  });

  it("gives up after maxRetries and throws the last answer", async () => {
    const recorder = recordingFetch();
    server.model.failNext = 5;
    try {
      const error = await client({ fetch: recorder.fetch, maxRetries: 1 })
        .imageBackgroundRemoval({ image: INPUT_PNG })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 502, code: "feature-failed" });
      expect(recorder.sent).toHaveLength(2);
    } finally {
      server.model.failNext = 0;
    }
  });

  it("waits the Retry-After of a 429 and tries again", async () => {
    const limited = await startPrismServer({ ORGANIZATION_QUEUED_CALLS: "1" });
    try {
      limited.model.delayMs = 1_500;
      const prism = new Prism({ apiKey: limited.apiKey, baseUrl: limited.baseUrl, maxRetries: 4 });
      const running = await prism.submit("image-background-removal", { image: INPUT_PNG });
      const recorder = recordingFetch();
      const started = Date.now();
      const refusal = await new Prism({ apiKey: limited.apiKey, baseUrl: limited.baseUrl, maxRetries: 0 })
        .imageBackgroundRemoval({ image: INPUT_PNG })
        .catch((caught: unknown) => caught);
      expect(refusal).toMatchObject({ status: 429, code: "rate-limited", retryAfter: 1 });
      const result = await new Prism({
        apiKey: limited.apiKey,
        baseUrl: limited.baseUrl,
        maxRetries: 4,
        fetch: recorder.fetch,
      }).imageBackgroundRemoval({ image: INPUT_PNG });
      expect(result.request.status).toBe("done");
      expect(recorder.sent.length).toBeGreaterThanOrEqual(2);
      // Each retry waited the second the server asked for.
      expect(Date.now() - started).toBeGreaterThanOrEqual((recorder.sent.length - 1) * 1_000);
      expect((await prism.requests.wait(running.id, { pollIntervalMs: 100 })).status).toBe("succeeded");
    } finally {
      await limited.close();
    }
  });

  it("does not wait a Retry-After longer than maxRetryDelayMs: it throws with retryAfter", async () => {
    const limited = await startPrismServer({ ORGANIZATION_QUEUED_CALLS: "1" });
    try {
      limited.model.delayMs = 1_000;
      const prism = new Prism({ apiKey: limited.apiKey, baseUrl: limited.baseUrl });
      const running = await prism.submit("image-background-removal", { image: INPUT_PNG });
      const recorder = recordingFetch();
      const error = await new Prism({
        apiKey: limited.apiKey,
        baseUrl: limited.baseUrl,
        maxRetryDelayMs: 500,
        fetch: recorder.fetch,
      })
        .imageBackgroundRemoval({ image: INPUT_PNG })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 429, retryAfter: 1 });
      expect(recorder.sent).toHaveLength(1);
      await prism.requests.wait(running.id, { pollIntervalMs: 100 });
    } finally {
      await limited.close();
    }
  });

  it("retries a dropped connection with the same Idempotency-Key", async () => {
    // A TCP relay in front of the server that drops the first connection before any answer.
    let connections = 0;
    const serverPort = Number(new URL(server.baseUrl).port);
    const sockets = new Set<Socket>();
    const relay: Server = createServer((socket) => {
      sockets.add(socket);
      connections++;
      if (connections === 1) {
        socket.once("data", () => socket.destroy());
        return;
      }
      const target = connect(serverPort, "127.0.0.1");
      sockets.add(target);
      socket.pipe(target).pipe(socket);
      target.on("error", () => socket.destroy());
      socket.on("error", () => target.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const address = relay.address();
    const relayUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    try {
      const recorder = recordingFetch();
      const result = await client({ baseUrl: relayUrl, fetch: recorder.fetch }).imageBackgroundRemoval({
        image: INPUT_PNG,
      });
      expect(result.request.status).toBe("done");
      expect(recorder.sent).toHaveLength(2);
      expect(recorder.sent[0]?.headers.get("idempotency-key")).toBe(
        recorder.sent[1]?.headers.get("idempotency-key"),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});

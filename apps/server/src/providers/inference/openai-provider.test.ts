import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  backgroundRemovalFeature,
  generativeFillFeature,
  imageGenerationFeature,
  transcriptionFeature,
} from "@prism/contract";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError, type ProviderInput } from "./feature-provider";
import { createOpenAiProvider, DEFAULT_FILL_PROMPT, generationSize, toOpenAiMask } from "./openai-provider";

interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A local stand-in for the OpenAI API that keeps request bodies as raw bytes (multipart images). */
async function startFakeOpenAi(handle: (request: Received, response: ServerResponse) => void) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(entry);
      handle(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type FakeOpenAi = Awaited<ReturnType<typeof startFakeOpenAi>>;
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function formOf(request: Received): Promise<FormData> {
  return new Response(new Uint8Array(request.body), {
    headers: { "content-type": String(request.headers["content-type"]) },
  }).formData();
}

function solidPng(width: number, height: number, color = "#3366ff"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * seconds * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const signal = () => new AbortController().signal;

describe("openai provider", () => {
  it("generates an image at the requested size through /v1/images/generations", async () => {
    const answer = await solidPng(1536, 1024);
    fake = await startFakeOpenAi((_request, response) =>
      json(response, 200, { created: 1, data: [{ b64_json: answer.toString("base64") }] }),
    );
    const provider = createOpenAiProvider({
      apiKey: "sk-test",
      baseUrl: fake.url,
      features: "all",
      timeoutMs: 5_000,
    });

    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "a lighthouse", negative_prompt: "people", width: 1024, height: 576 } },
      signal(),
    );

    expect(output.kind).toBe("image");
    if (output.kind !== "image") return;
    expect(output.mimeType).toBe("image/png");
    const metadata = await sharp(output.data).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["png", 1024, 576]);
    const request = fake.requests[0]!;
    expect([request.method, request.path]).toEqual(["POST", "/v1/images/generations"]);
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(JSON.parse(request.body.toString())).toEqual({
      model: "gpt-image-1",
      prompt: "a lighthouse\n\nAvoid: people",
      size: "1536x1024",
      n: 1,
    });
  });

  it("asks dall-e and unknown models for base64 with their own sizes", async () => {
    const answer = await solidPng(1024, 1024);
    fake = await startFakeOpenAi((_request, response) =>
      json(response, 200, { created: 1, data: [{ b64_json: answer.toString("base64") }] }),
    );
    for (const image of ["dall-e-3", "flux-dev"]) {
      const provider = createOpenAiProvider({
        apiKey: "k",
        baseUrl: fake.url,
        features: ["image-generation"],
        models: { image },
        timeoutMs: 5_000,
      });
      await provider.run(
        imageGenerationFeature,
        { files: {}, body: { prompt: "x", width: 576, height: 1024 } },
        signal(),
      );
    }
    const bodies = fake.requests.map((request) => JSON.parse(request.body.toString()));
    expect(bodies.map((body) => [body.model, body.size, body.response_format])).toEqual([
      ["dall-e-3", "1024x1792", "b64_json"],
      ["flux-dev", "576x1024", "b64_json"],
    ]);
  });

  it("picks sizes the models accept", () => {
    expect(generationSize("gpt-image-1", 1024, 1024)).toEqual({ width: 1024, height: 1024 });
    expect(generationSize("gpt-image-1", 820, 1024)).toEqual({ width: 1024, height: 1536 });
    expect(generationSize("dall-e-2", 576, 1024)).toEqual({ width: 1024, height: 1024 });
    expect(generationSize("gpt-image-2", 1000, 562)).toEqual({ width: 1008, height: 560 });
  });

  it("converts our white-is-area mask to OpenAI's transparent-is-area mask for /v1/images/edits", async () => {
    const result = await solidPng(64, 48, "#00ff00");
    fake = await startFakeOpenAi((_request, response) =>
      json(response, 200, { created: 1, data: [{ b64_json: result.toString("base64") }] }),
    );
    const provider = createOpenAiProvider({
      apiKey: "k",
      baseUrl: fake.url,
      features: "all",
      timeoutMs: 5_000,
    });
    // Left half white (change), right half black (keep).
    const mask = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#000000" } })
      .composite([{ input: await solidPng(32, 48, "#ffffff"), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const input: ProviderInput = {
      files: {
        image: [{ buffer: await solidPng(64, 48, "#ff0000"), mimeType: "image/png", filename: "in.png" }],
        mask: [{ buffer: mask, mimeType: "image/png", filename: "mask.png" }],
      },
      body: { denoise: 0.7, cfg: 46 },
    };

    const output = await provider.run(generativeFillFeature, input, signal());

    expect(output.kind).toBe("image");
    if (output.kind === "image") {
      const size = await sharp(output.data).metadata();
      expect([size.width, size.height]).toEqual([64, 48]);
    }
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/images/edits");
    const form = await formOf(request);
    expect(form.get("model")).toBe("gpt-image-1");
    expect(form.get("prompt")).toBe(DEFAULT_FILL_PROMPT);
    expect(form.get("response_format")).toBeNull();
    const sentMask = form.get("mask") as File;
    const sentImage = (form.get("image") ?? form.get("image[]")) as File;
    expect(sentImage.type).toBe("image/png");
    const { data, info } = await sharp(Buffer.from(await sentMask.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([64, 48, 4]);
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    expect(alphaAt(5, 10)).toBe(0);
    expect(alphaAt(60, 40)).toBe(255);
  });

  it("builds the mask on its own from a soft, alpha-carrying mask", async () => {
    const grey = await sharp({
      create: { width: 4, height: 2, channels: 4, background: { r: 200, g: 200, b: 200, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const { data, info } = await sharp(await toOpenAiMask(grey, 8, 4))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([8, 4, 4]);
    expect(data[3]).toBe(0);
  });

  it("transcribes with verbose_json into timed segments", async () => {
    fake = await startFakeOpenAi((_request, response) =>
      json(response, 200, {
        task: "transcribe",
        language: "english",
        duration: 3.2,
        text: "Hello there. General Kenobi.",
        segments: [
          { id: 0, start: 0, end: 1.4, text: " Hello there." },
          { id: 1, start: 1.4, end: 3.2, text: " General Kenobi." },
        ],
      }),
    );
    const provider = createOpenAiProvider({
      apiKey: "k",
      baseUrl: fake.url,
      features: "all",
      timeoutMs: 5_000,
    });
    const input: ProviderInput = {
      files: { audio: [{ buffer: silentWav(1), mimeType: "audio/wav", filename: "speech.wav" }] },
      body: { language: "en" },
    };

    await expect(provider.run(transcriptionFeature, input, signal())).resolves.toEqual({
      kind: "json",
      body: {
        language: "en",
        segments: [
          { start: 0, end: 1.4, text: "Hello there." },
          { start: 1.4, end: 3.2, text: "General Kenobi." },
        ],
      },
    });
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/audio/transcriptions");
    const form = await formOf(request);
    expect(form.get("model")).toBe("whisper-1");
    expect(form.get("language")).toBe("en");
    expect(form.get("response_format")).toBe("verbose_json");
    expect((form.get("file") as File).name).toBe("speech.wav");
  });

  it("turns a segment-less model's text into one segment spanning the audio", async () => {
    fake = await startFakeOpenAi((_request, response) => json(response, 200, { text: " Bonjour. " }));
    const provider = createOpenAiProvider({
      apiKey: "k",
      baseUrl: fake.url,
      features: ["speech-to-text"],
      models: { transcription: "gpt-4o-mini-transcribe" },
      timeoutMs: 5_000,
    });
    const output = await provider.run(
      transcriptionFeature,
      {
        files: { audio: [{ buffer: silentWav(2), mimeType: "audio/wav", filename: "a.wav" }] },
        body: { language: "fr" },
      },
      signal(),
    );
    expect(output).toEqual({
      kind: "json",
      body: { language: "fr", segments: [{ start: 0, end: 2, text: "Bonjour." }] },
    });
    expect((await formOf(fake.requests[0]!)).get("response_format")).toBe("json");
  });

  it("maps API errors without leaking upstream messages", async () => {
    const answers: [number, unknown][] = [
      [
        400,
        {
          error: {
            message: "Your request was rejected by the safety system.",
            type: "image_generation_user_error",
            code: "moderation_blocked",
          },
        },
      ],
      [
        401,
        {
          error: {
            message: "Incorrect API key provided: sk-abc***",
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        },
      ],
      [429, { error: { message: "Rate limit", type: "requests", code: "rate_limit_exceeded" } }],
      [500, { error: { message: "boom", type: "server_error", code: null } }],
    ];
    fake = await startFakeOpenAi((_request, response) => {
      const [status, body] = answers[fake!.requests.length - 1]!;
      json(response, status, body);
    });
    const provider = createOpenAiProvider({
      apiKey: "k",
      baseUrl: fake.url,
      features: "all",
      timeoutMs: 5_000,
    });
    const errors: ProviderError[] = [];
    for (const _ of answers) {
      errors.push(
        (await provider
          .run(
            imageGenerationFeature,
            { files: {}, body: { prompt: "x", width: 1024, height: 1024 } },
            signal(),
          )
          .catch((error: unknown) => error)) as ProviderError,
      );
    }
    expect(errors.every((error) => error instanceof ProviderError)).toBe(true);
    expect(errors.map((error) => error.code)).toEqual(["invalid-input", "unavailable", "failed", "failed"]);
    expect(errors.map((error) => error.message).join(" ")).not.toMatch(/sk-abc|boom/);
    expect(errors[3]?.cause).toBeDefined();
  });

  it("times out, and reports an unreachable API as unavailable", async () => {
    fake = await startFakeOpenAi(() => {
      // Never answers.
    });
    const slow = createOpenAiProvider({ apiKey: "k", baseUrl: fake.url, features: "all", timeoutMs: 150 });
    await expect(
      slow.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, signal()),
    ).rejects.toMatchObject({ code: "timeout" });

    const aborted = createOpenAiProvider({
      apiKey: "k",
      baseUrl: fake.url,
      features: "all",
      timeoutMs: 60_000,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      aborted.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, controller.signal),
    ).rejects.toMatchObject({ code: "timeout" });

    const gone = createOpenAiProvider({
      apiKey: "k",
      baseUrl: "http://127.0.0.1:9/v1",
      features: "all",
      timeoutMs: 2_000,
    });
    await expect(
      gone.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, signal()),
    ).rejects.toMatchObject({ code: "unavailable" });
  });

  it("serves only the features it is configured for, without probing the network", async () => {
    const provider = createOpenAiProvider({ apiKey: "k", features: ["speech-to-text"], timeoutMs: 1_000 });
    expect(provider.name).toBe("openai");
    expect(provider.supports(transcriptionFeature)).toBe(true);
    expect(provider.supports(imageGenerationFeature)).toBe(false);
    expect(provider.supports(backgroundRemovalFeature)).toBe(false);
    await expect(provider.availability(transcriptionFeature)).resolves.toEqual({ available: true });
    await expect(provider.availability(imageGenerationFeature)).resolves.toMatchObject({ available: false });
    expect(() =>
      createOpenAiProvider({ apiKey: "k", features: ["image-background-removal"], timeoutMs: 1 }),
    ).toThrow(/image-background-removal/);
  });
});

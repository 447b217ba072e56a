import {
  backgroundRemovalFeature,
  identityInpaintingFeature,
  imageExtensionFeature,
  imageGenerationFeature,
  pegasusGenerationFeature,
  pegasusTrainingFeature,
  transcriptionFeature,
} from "@prism/contract";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeFal, startFakeFal } from "../../../test/fake-fal";
import { makePng } from "../../../test/images";
import { createFalProvider } from "./fal-provider";
import type { FeatureProvider } from "./feature-provider";
import { DEFAULT_FAL_MODELS } from "./model-map";

let fake: FakeFal;
let provider: FeatureProvider;

beforeEach(async () => {
  fake = await startFakeFal();
  provider = createFalProvider({
    apiKey: fake.key,
    baseUrl: fake.url,
    models: DEFAULT_FAL_MODELS,
    pollIntervalMs: 20,
  });
});
afterEach(() => fake.close());

const live = () => new AbortController().signal;

describe("fal provider", () => {
  it("submits to the queue, follows the status and reads the result from fal's storage", async () => {
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "a harbour", width: 1024, height: 576 } },
      live(),
    );
    const submit = fake.server.requests.find(
      (entry) => entry.method === "POST" && entry.path === "/fal-ai/flux/dev",
    );
    expect(submit?.headers.authorization).toBe(`Key ${fake.key}`);
    expect(JSON.parse(submit!.body)).toMatchObject({
      prompt: "a harbour",
      image_size: { width: 1024, height: 576 },
      num_images: 1,
    });
    expect(fake.log.some((line) => /^status \w+ COMPLETED$/.test(line))).toBe(true);
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 64, height: 36 });
    expect(output.upstream?.costMicros).toBe(25_000n);
  });

  it("uploads the image to fal's storage and reads a single-image result", async () => {
    const output = await provider.run(
      backgroundRemovalFeature,
      {
        files: { image: [{ buffer: await makePng(30, 20), mimeType: "image/png", filename: "i.png" }] },
        body: {},
      },
      live(),
    );
    expect(fake.log.some((line) => line.startsWith("upload "))).toBe(true);
    const submit = fake.server.requests.find((entry) => entry.path === "/fal-ai/birefnet");
    expect(JSON.parse(submit!.body).image_url).toMatch(/\/files\/\w+-/);
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 30, height: 20 });
  });

  it("extends an image on Bria's canvas with the original placed where the sides say", async () => {
    await provider.run(
      imageExtensionFeature,
      {
        files: { image: [{ buffer: await makePng(30, 20), mimeType: "image/png", filename: "i.png" }] },
        body: { top: 4, bottom: 6, left: 10, right: 0 },
      },
      live(),
    );
    const submit = fake.server.requests.find((entry) => entry.path === "/fal-ai/bria/expand");
    expect(JSON.parse(submit!.body)).toMatchObject({
      canvas_size: [40, 30],
      original_image_size: [30, 20],
      original_image_location: [10, 4],
    });
  });

  it("cancels the queued request when the call is cancelled", async () => {
    fake.behaviour.set("fal-ai/flux/dev", { durationMs: 30_000 });
    const controller = new AbortController();
    const running = provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "stop" } },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 200);
    await expect(running).rejects.toMatchObject({ code: "timeout" });
    const [request] = [...fake.requests.values()];
    expect(fake.log).toContain(`cancel ${request!.id}`);
    expect(request!.cancelled).toBe(true);
  });

  it("maps fal's 422 to invalid input with its messages", async () => {
    fake.behaviour.set("fal-ai/flux-pro/v1.1", { required: ["seed"] });
    await expect(
      provider.run(pegasusGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({ code: "invalid-input", message: "field required: seed" });
  });

  it("reports a run that failed on fal as failed", async () => {
    fake.behaviour.set("fal-ai/flux/dev", { failWith: "Out of memory" });
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({ code: "failed" });
  });

  it("retries a busy queue (429) with the client's backoff", async () => {
    fake.failNext(/^POST \/fal-ai\/flux\/dev$/, 429, 1);
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "busy" } },
      live(),
    );
    expect(output.kind).toBe("image");
    expect(fake.log.filter((line) => line.startsWith("fail 429"))).toHaveLength(1);
    expect(fake.requests.size).toBe(1);
  });

  it("transcribes with fal's Whisper", async () => {
    const output = await provider.run(
      transcriptionFeature,
      {
        files: { audio: [{ buffer: Buffer.from("RIFF"), mimeType: "audio/wav", filename: "a.wav" }] },
        body: { language: "en" },
      },
      live(),
    );
    expect(output).toMatchObject({
      kind: "json",
      body: { language: "en", segments: [{ start: 0, end: 1.25, text: "Hello from the fake fal." }] },
    });
  });

  it("trains a LoRA and uses its weights for Pegasus generation and identity inpainting", async () => {
    const photos = await Promise.all(Array.from({ length: 10 }, () => makePng(32, 32)));
    const started = await provider.run(
      pegasusTrainingFeature,
      {
        files: { images: photos.map((buffer) => ({ buffer, mimeType: "image/png", filename: "p.png" })) },
        body: {},
      },
      live(),
    );
    if (started.kind !== "json" || !("identityId" in started.body)) throw new Error("expected a training");
    const { identityId } = started.body;
    const submit = fake.server.requests.find((entry) => entry.path === "/fal-ai/flux-lora-fast-training");
    expect(JSON.parse(submit!.body)).toMatchObject({ trigger_word: "TOK" });
    expect(JSON.parse(submit!.body).images_data_url).toMatch(/\/files\/\w+-/);
    await expect.poll(() => provider.trainingStatus!(identityId).then((s) => s.status)).toBe("ready");

    const weights = (fake.requests.get(identityId)!.result as { diffusers_lora_file: { url: string } })
      .diffusers_lora_file.url;
    const identity = { identityId, requestId: "r" };
    await provider.run(pegasusGenerationFeature, { files: {}, body: { prompt: "at sea" }, identity }, live());
    const lora = fake.server.requests.find(
      (entry) => entry.method === "POST" && entry.path === "/fal-ai/flux-lora",
    );
    expect(JSON.parse(lora!.body)).toMatchObject({
      prompt: "a photo of TOK, at sea",
      loras: [{ path: weights, scale: 1 }],
    });

    await provider.run(
      identityInpaintingFeature,
      {
        files: {
          image: [{ buffer: await makePng(32, 32), mimeType: "image/png", filename: "i.png" }],
          mask: [{ buffer: await makePng(32, 32), mimeType: "image/png", filename: "m.png" }],
        },
        body: { prompt: "" },
        identity,
      },
      live(),
    );
    const inpaint = fake.server.requests.find((entry) => entry.path === "/fal-ai/flux-lora/inpainting");
    expect(JSON.parse(inpaint!.body)).toMatchObject({
      loras: [{ path: weights, scale: 1 }],
      prompt: "a photo of TOK",
    });
  });

  it("reports a trainer that failed as a failed clone", async () => {
    fake.behaviour.set("fal-ai/flux-lora-fast-training", { failWith: "Not enough faces" });
    const photos = await Promise.all(Array.from({ length: 10 }, () => makePng(32, 32)));
    const started = await provider.run(
      pegasusTrainingFeature,
      {
        files: { images: photos.map((buffer) => ({ buffer, mimeType: "image/png", filename: "p.png" })) },
        body: {},
      },
      live(),
    );
    if (started.kind !== "json" || !("identityId" in started.body)) throw new Error("expected a training");
    const { identityId } = started.body;
    await expect.poll(() => provider.trainingStatus!(identityId).then((s) => s.status)).toBe("failed");
  });
});

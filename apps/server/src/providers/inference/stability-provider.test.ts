import {
  FEATURES,
  imageExtensionFeature,
  imageGenerationFeature,
  objectRemovalFeature,
  PROVIDER_SETUPS,
  upscalingFeature,
} from "@prism/contract";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeStability, startFakeStability } from "../../../test/fake-stability";
import { makePng } from "../../../test/images";
import type { FeatureProvider } from "./feature-provider";
import { DEFAULT_STABILITY_MODELS } from "./model-map";
import { createStabilityProvider } from "./stability-provider";
import { PROVIDER_BUSY } from "./upstream";

let fake: FakeStability;
let provider: FeatureProvider;

beforeEach(async () => {
  fake = await startFakeStability();
  provider = createStabilityProvider({
    apiKey: fake.key,
    baseUrl: fake.url,
    models: DEFAULT_STABILITY_MODELS,
    pollIntervalMs: 20,
    backoff: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 },
  });
});
afterEach(() => fake.close());

const live = () => new AbortController().signal;
const png = async (width: number, height: number) => ({
  buffer: await makePng(width, height),
  mimeType: "image/png",
  filename: "i.png",
});

describe("Stability provider", () => {
  it("serves exactly the features of its row in the providers table", () => {
    const row = PROVIDER_SETUPS.find((setup) => setup.provider === "stability")!;
    const served = FEATURES.filter((feature) => provider.supports(feature)).map((feature) => feature.id);
    expect(served.sort()).toEqual([...row.features].sort());
  });

  it("posts multipart to generate/core with Accept: image/* and returns the image", async () => {
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "a fox", negative_prompt: "blur", width: 1024, height: 576 } },
      live(),
    );
    expect(fake.calls[0]).toMatchObject({
      path: "stable-image/generate/core",
      fields: { prompt: "a fox", negative_prompt: "blur", aspect_ratio: "16:9", output_format: "png" },
    });
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 96, height: 54 });
    expect(output.upstream?.costMicros).toBe(30_000n);
  });

  it("sends the image and mask as files to edit/erase", async () => {
    await provider.run(
      objectRemovalFeature,
      { files: { image: [await png(20, 20)], mask: [await png(20, 20)] }, body: {} },
      live(),
    );
    expect(fake.calls[0]?.files).toMatchObject({ image: { type: "image/png" }, mask: { type: "image/png" } });
  });

  it("outpaints by the four sides", async () => {
    const output = await provider.run(
      imageExtensionFeature,
      { files: { image: [await png(20, 10)] }, body: { top: 2, bottom: 3, left: 4, right: 5 } },
      live(),
    );
    expect(fake.calls[0]?.fields).toMatchObject({ up: "2", down: "3", left: "4", right: "5" });
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 29, height: 15 });
  });

  it("polls an asynchronous endpoint until its result is ready", async () => {
    const creative = createStabilityProvider({
      apiKey: fake.key,
      baseUrl: fake.url,
      models: {
        "image-upscaling": {
          model: "stable-image/upscale/creative",
          mode: "async",
          input: { image: "$image", prompt: "sharp" },
        },
      },
      pollIntervalMs: 20,
    });
    fake.behaviour.set("stable-image/upscale/creative", { durationMs: 150 });
    const output = await creative.run(
      upscalingFeature,
      { files: { image: [await png(16, 16)] }, body: {} },
      live(),
    );
    expect(output.kind).toBe("image");
    expect(fake.log.filter((line) => line.startsWith("poll ")).length).toBeGreaterThan(1);
  });

  it("answers invalid input with Stability's errors", async () => {
    fake.behaviour.set("stable-image/generate/core", { required: ["style_preset"] });
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({ code: "invalid-input", message: "style_preset: required" });
  });

  it("treats a filtered result as refused input, not as an image", async () => {
    fake.behaviour.set("stable-image/generate/core", { filtered: true });
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("retries 429 and 503, then gives up busy", async () => {
    fake.failNext(/^POST /, 429, 1);
    fake.failNext(/^POST /, 503, 1);
    expect(
      (await provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live())).kind,
    ).toBe("image");
    fake.failNext(/^POST /, 429, 5);
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({ code: "failed", message: PROVIDER_BUSY });
  });
});

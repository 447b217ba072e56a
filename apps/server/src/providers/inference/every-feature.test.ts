import { FEATURES, type Feature } from "@prism/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeFal } from "../../../test/fake-fal";
import { startFakeReplicate } from "../../../test/fake-replicate";
import { makePng, makeWav } from "../../../test/images";
import { createFalProvider } from "./fal-provider";
import type { FeatureProvider, ProviderFile, ProviderInput } from "./feature-provider";
import { DEFAULT_FAL_MODELS, DEFAULT_REPLICATE_MODELS } from "./model-map";
import { createReplicateProvider } from "./replicate-provider";

/**
 * With one key, every feature runs on Replicate and on fal: each of the thirteen through the shipped
 * model map and the official client, against the local fakes, to an image or a body of the right
 * kind. (The AI Clone's use by Pegasus generation and identity inpainting is in each adapter's test.)
 */

async function png(width = 48, height = 32): Promise<ProviderFile> {
  return { buffer: await makePng(width, height), mimeType: "image/png", filename: "i.png" };
}

async function inputFor(feature: Feature): Promise<ProviderInput> {
  const files: ProviderInput["files"] = {};
  for (const file of feature.inputs.files) {
    if (!file.required) continue;
    if (file.kind === "audio") {
      files[file.name] = [{ buffer: makeWav(2), mimeType: "audio/wav", filename: "a.wav" }];
    } else {
      files[file.name] = await Promise.all(Array.from({ length: file.minCount }, () => png()));
    }
  }
  const body: Record<string, unknown> = {
    prompt: "a test",
    width: 1024,
    height: 1024,
    denoise: 0.7,
    language: "en",
  };
  if (feature.id === "image-extension") Object.assign(body, { top: 8, bottom: 0, left: 0, right: 16 });
  return { files, body };
}

const platforms = [
  {
    name: "Replicate",
    start: async () => {
      const catalogue = Object.values(DEFAULT_REPLICATE_MODELS).flatMap((entry) =>
        entry?.model.includes(":") ? [entry.model] : [],
      );
      const fake = await startFakeReplicate({ catalogue });
      const provider = createReplicateProvider({
        apiToken: fake.token,
        baseUrl: fake.apiUrl,
        models: DEFAULT_REPLICATE_MODELS,
        waitSeconds: 1,
        pollIntervalMs: 20,
      });
      return { provider, close: () => fake.close() };
    },
  },
  {
    name: "fal",
    start: async () => {
      const fake = await startFakeFal();
      const provider = createFalProvider({
        apiKey: fake.key,
        baseUrl: fake.url,
        models: DEFAULT_FAL_MODELS,
        pollIntervalMs: 20,
      });
      return { provider, close: () => fake.close() };
    },
  },
];

describe.each(platforms)("every feature on $name", ({ start }) => {
  let provider: FeatureProvider;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ provider, close } = await start());
  });
  afterAll(() => close());

  it.each(
    FEATURES.filter((feature) => feature.id !== "identity-inpainting").map((feature) => [
      feature.id,
      feature,
    ]),
  )("%s", async (_id, feature) => {
    expect(provider.supports(feature)).toBe(true);
    const output = await provider.run(feature, await inputFor(feature), new AbortController().signal);
    if (feature.id === "pegasus-training") {
      expect(output).toMatchObject({ kind: "json", body: { status: "pending" } });
    } else if (feature.id === "speech-to-text") {
      expect(output.kind).toBe("json");
      if (output.kind === "json" && "segments" in output.body)
        expect(output.body.segments.length).toBeGreaterThan(0);
    } else {
      expect(output.kind).toBe("image");
      if (output.kind === "image") expect((await sharp(output.data).metadata()).width).toBeGreaterThan(0);
    }
  });

  it("offers identity inpainting (run with a trained clone in the adapter's own test)", () => {
    expect(provider.supports(FEATURES.find((feature) => feature.id === "identity-inpainting")!)).toBe(true);
  });
});

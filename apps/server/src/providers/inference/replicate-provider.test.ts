import {
  identityInpaintingFeature,
  imageGenerationFeature,
  pegasusGenerationFeature,
  pegasusTrainingFeature,
  transcriptionFeature,
  upscalingFeature,
} from "@prism/contract";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeReplicate, startFakeReplicate } from "../../../test/fake-replicate";
import { makePng } from "../../../test/images";
import { type FeatureProvider, ProviderError, type ProviderInput } from "./feature-provider";
import { DEFAULT_REPLICATE_MODELS } from "./model-map";
import { createReplicateProvider } from "./replicate-provider";
import { PROVIDER_BUSY, RESULT_EXPIRED } from "./upstream";

const CATALOGUE = Object.values(DEFAULT_REPLICATE_MODELS).flatMap((entry) =>
  entry?.model.includes(":") ? [entry.model] : [],
);

let fake: FakeReplicate;
let provider: FeatureProvider;

beforeEach(async () => {
  fake = await startFakeReplicate({ catalogue: CATALOGUE });
  provider = createReplicateProvider({
    apiToken: fake.token,
    baseUrl: fake.apiUrl,
    models: DEFAULT_REPLICATE_MODELS,
    waitSeconds: 1,
    pollIntervalMs: 20,
    backoff: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 3 },
  });
});
afterEach(() => fake.close());

const live = () => new AbortController().signal;

async function imageInput(width = 40, height = 30): Promise<ProviderInput> {
  return {
    files: { image: [{ buffer: await makePng(width, height), mimeType: "image/png", filename: "in.png" }] },
    body: {},
  };
}

function bodyOf(method: string, path: string) {
  const request = fake.server.requests.find((entry) => entry.method === method && entry.path === path);
  return request ? (JSON.parse(request.body) as Record<string, unknown>) : undefined;
}

describe("Replicate provider", () => {
  it("runs an official model with Prefer: wait and returns the image it fetched from the delivery host", async () => {
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "a lighthouse", width: 1024, height: 576 } },
      live(),
    );

    const create = fake.server.requests.find(
      (entry) => entry.path === "/v1/models/black-forest-labs/flux-dev/predictions",
    );
    expect(create?.method).toBe("POST");
    expect(create?.headers.prefer).toBe("wait=1");
    expect(create?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(JSON.parse(create!.body).input).toMatchObject({
      prompt: "a lighthouse",
      aspect_ratio: "16:9",
      num_outputs: 1,
      output_format: "png",
    });
    expect(output.kind).toBe("image");
    if (output.kind !== "image") return;
    expect(output.mimeType).toBe("image/png");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 96, height: 54 });
    // flux-dev is priced per image: the map's price, in micro-dollars, and the compute time reported.
    expect(output.upstream?.costMicros).toBe(25_000n);
    expect(output.upstream?.computeMs).toBeGreaterThanOrEqual(0);
  });

  it("uploads files through the Files API and runs a pinned community version", async () => {
    const output = await provider.run(upscalingFeature, await imageInput(40, 30), live());

    expect(fake.log.some((line) => line.startsWith("upload "))).toBe(true);
    const create = bodyOf("POST", "/v1/predictions");
    expect(create?.version).toBe("42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b");
    expect(String((create!.input as { image: string }).image)).toMatch(/\/v1\/files\/\w+$/);
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 80, height: 60 });
  });

  it("polls a prediction that outlives Prefer: wait until it succeeds", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { durationMs: 1_400 });
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "slow", width: 1024, height: 1024 } },
      live(),
    );
    expect(output.kind).toBe("image");
    expect(fake.log.filter((line) => line.startsWith("get ")).length).toBeGreaterThan(0);
  });

  it("cancels the prediction upstream when the call is cancelled", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { durationMs: 30_000 });
    const controller = new AbortController();
    const running = provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "never mind", width: 1024, height: 1024 } },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 1_300);
    await expect(running).rejects.toMatchObject({ code: "timeout" });
    const [job] = [...fake.jobs.values()];
    expect(fake.log).toContain(`cancel ${job!.id}`);
    expect(job!.status).toBe("canceled");
  });

  it("cancels the prediction upstream when the call times out while Prefer: wait still blocks", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { durationMs: 30_000 });
    await expect(
      provider.run(
        imageGenerationFeature,
        { files: {}, body: { prompt: "too slow", width: 1024, height: 1024 } },
        AbortSignal.timeout(200),
      ),
    ).rejects.toMatchObject({ code: "timeout" });
    // The caller has its answer; the prediction is cancelled once the blocked create returns its id.
    await expect.poll(() => [...fake.jobs.values()][0]?.status, { timeout: 5_000 }).toBe("canceled");
    const [job] = [...fake.jobs.values()];
    expect(fake.log).toContain(`cancel ${job!.id}`);
  });

  it("maps Replicate's 422 to invalid input with its detail", async () => {
    fake.behaviour.set("black-forest-labs/flux-1.1-pro", { required: ["seed"] });
    const failure = provider.run(
      pegasusGenerationFeature,
      { files: {}, body: { prompt: "x", width: 1024, height: 1024 } },
      live(),
    );
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toMatchObject({
      code: "invalid-input",
      message: "- input.seed: seed is required",
    });
  });

  it("retries 429 with backoff and then succeeds", async () => {
    fake.failNext(/^POST \/v1\/models\/.*\/predictions$/, 429, 2, { "retry-after": "0" });
    const output = await provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "busy", width: 1024, height: 1024 } },
      live(),
    );
    expect(output.kind).toBe("image");
    expect(fake.log.filter((line) => line.startsWith("fail 429"))).toHaveLength(2);
    expect(fake.jobs.size).toBe(1);
  });

  it("gives up on a platform that stays busy, without creating a prediction", async () => {
    fake.failNext(/^POST \/v1\/models\/.*\/predictions$/, 503, 10);
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "down" } }, live()),
    ).rejects.toMatchObject({ code: "failed" });
    // Three attempts (the policy), not three times the client's own five retries.
    expect(fake.log.filter((line) => line.startsWith("fail 503"))).toHaveLength(3);
    expect(fake.jobs.size).toBe(0);
  });

  it("turns 429 into a refusal when the platform stays rate limited", async () => {
    fake.failNext(/^POST \/v1\/models\/.*\/predictions$/, 429, 10, { "retry-after": "0" });
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "limit" } }, live()),
    ).rejects.toMatchObject({ code: "failed", message: PROVIDER_BUSY });
  });

  it("says so when the result's URL expired before it could be fetched", async () => {
    fake.outputTtlMs = -1;
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "late" } }, live()),
    ).rejects.toMatchObject({ code: "failed", message: RESULT_EXPIRED });
  });

  it("reports a failed prediction with the model's error", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { failWith: "NSFW content detected in the output." });
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "no" } }, live()),
    ).rejects.toMatchObject({ code: "failed", message: "NSFW content detected in the output." });
  });

  it("transcribes with Whisper into timed segments", async () => {
    const output = await provider.run(
      transcriptionFeature,
      {
        files: { audio: [{ buffer: Buffer.from("RIFFfake"), mimeType: "audio/wav", filename: "a.wav" }] },
        body: { language: "en" },
      },
      live(),
    );
    expect(output).toMatchObject({
      kind: "json",
      body: {
        language: "en",
        segments: [
          { start: 0, end: 1.5, text: "Hello from the fake Replicate." },
          { start: 1.5, end: 2.5, text: "Second segment." },
        ],
      },
    });
    const create = bodyOf("POST", "/v1/predictions");
    expect(create?.version).toBe("8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e");
    expect((create!.input as { language: string }).language).toBe("en");
  });

  it("trains an AI Clone as a new version and generates and inpaints with it", async () => {
    const photos = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(32 + index, 32)));
    const started = await provider.run(
      pegasusTrainingFeature,
      {
        files: {
          images: photos.map((buffer, index) => ({
            buffer,
            mimeType: "image/png",
            filename: `${index}.png`,
          })),
        },
        body: { description: "Me" },
      },
      live(),
    );
    if (started.kind !== "json" || !("identityId" in started.body)) throw new Error("expected a training");
    const identityId = started.body.identityId;
    expect(started.body.status).toBe("pending");
    // The destination model did not exist: it was created private under the token's account.
    expect(fake.log).toContain("model prism-test/prism-ai-clones");
    const training = fake.jobs.get(identityId);
    expect(training?.destination).toBe("prism-test/prism-ai-clones");
    expect(String(training?.input.input_images)).toMatch(/\/v1\/files\/\w+$/);
    expect(training?.input.trigger_word).toBe("TOK");

    await expect.poll(() => provider.trainingStatus!(identityId).then((s) => s.status)).toBe("ready");

    const generated = await provider.run(
      pegasusGenerationFeature,
      {
        files: {},
        body: { prompt: "on a beach", width: 1024, height: 1024, identity_id: identityId },
        identity: { identityId, requestId: "r1" },
      },
      live(),
    );
    expect(generated.kind).toBe("image");
    const trainedVersion = String((training!.output as { version: string }).version).split(":")[1];
    const runs = fake.server.requests.filter(
      (entry) => entry.method === "POST" && entry.path === "/v1/predictions",
    );
    expect(JSON.parse(runs[0]!.body)).toMatchObject({
      version: trainedVersion,
      input: { prompt: "a photo of TOK, on a beach" },
    });

    const inpainted = await provider.run(
      identityInpaintingFeature,
      {
        files: {
          image: [{ buffer: await makePng(48, 40), mimeType: "image/png", filename: "i.png" }],
          mask: [{ buffer: await makePng(48, 40), mimeType: "image/png", filename: "m.png" }],
        },
        body: { identity_id: identityId, prompt: "smiling" },
        identity: { identityId, requestId: "r1" },
      },
      live(),
    );
    if (inpainted.kind !== "image") throw new Error("expected an image");
    expect(await sharp(inpainted.data).metadata()).toMatchObject({ width: 48, height: 40 });
    const inpaint = fake.server.requests.filter(
      (entry) => entry.method === "POST" && entry.path === "/v1/predictions",
    )[1];
    const inpaintBody = JSON.parse(inpaint!.body) as { version: string; input: Record<string, string> };
    expect(inpaintBody.version).toBe(trainedVersion);
    expect(inpaintBody.input.prompt).toBe("a photo of TOK, smiling");
    expect(inpaintBody.input.mask).toMatch(/\/v1\/files\/\w+$/);
  });

  it("reports a training that failed upstream as failed", async () => {
    fake.behaviour.set("ostris/flux-dev-lora-trainer", { failWith: "CUDA out of memory" });
    const photos = await Promise.all(Array.from({ length: 10 }, () => makePng(32, 32)));
    const started = await provider.run(
      pegasusTrainingFeature,
      {
        files: { images: photos.map((buffer) => ({ buffer, mimeType: "image/png", filename: "p.png" })) },
        body: { description: "Me" },
      },
      live(),
    );
    if (started.kind !== "json" || !("identityId" in started.body)) throw new Error("expected a training");
    const { identityId } = started.body;
    await expect.poll(() => provider.trainingStatus!(identityId).then((s) => s.status)).toBe("failed");
  });
});

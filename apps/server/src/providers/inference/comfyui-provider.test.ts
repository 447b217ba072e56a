import {
  generativeFillFeature,
  imageExtensionFeature,
  imageGenerationFeature,
  upscalingFeature,
} from "@prism/contract";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeComfy, startFakeComfy } from "../../../test/fake-comfyui";
import { makePng } from "../../../test/images";
import { type ComfyFeatureProvider, createComfyProvider } from "./comfyui-provider";
import { SDXL_CHECKPOINT } from "./comfyui-workflows";
import { DEFAULT_COMFYUI_MODELS } from "./model-map";

let fake: FakeComfy;
let provider: ComfyFeatureProvider;

beforeEach(async () => {
  fake = await startFakeComfy();
  provider = createComfyProvider({ urls: [fake.url], models: DEFAULT_COMFYUI_MODELS, pollIntervalMs: 20 });
});
afterEach(() => fake.close());

const live = () => new AbortController().signal;
const png = async (width: number, height: number) => ({
  buffer: await makePng(width, height),
  mimeType: "image/png",
  filename: "i.png",
});

describe("ComfyUI provider", () => {
  it("queues the workflow under our call id with the prompt and size filled in, and reads the result", async () => {
    const output = await provider.run(
      imageGenerationFeature,
      {
        files: {},
        body: { prompt: "a castle", negative_prompt: "fog", width: 1024, height: 576 },
        callId: "call-1",
      },
      live(),
    );
    const prompt = fake.prompts.get("call-1");
    expect(prompt?.workflow["6"]?.inputs.text).toBe("a castle");
    expect(prompt?.workflow["7"]?.inputs.text).toBe("fog");
    expect(prompt?.workflow["5"]?.inputs).toMatchObject({ width: 1024, height: 576 });
    expect(typeof prompt?.workflow["3"]?.inputs.seed).toBe("number");
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 64, height: 36 });
  });

  it("uploads the image and mask for inpainting and fills the LoadImage nodes", async () => {
    await provider.run(
      generativeFillFeature,
      {
        files: { image: [await png(40, 30)], mask: [await png(40, 30)] },
        body: { prompt: "a boat", denoise: 0.8 },
        callId: "call-2",
      },
      live(),
    );
    const workflow = fake.prompts.get("call-2")!.workflow;
    expect(String(workflow["10"]?.inputs.image)).toMatch(/^prism\/prism-.*\.png$/);
    expect(String(workflow["11"]?.inputs.image)).toMatch(/^prism\/prism-.*\.png$/);
    expect(workflow["3"]?.inputs.denoise).toBe(0.8);
    expect(fake.log.filter((line) => line.startsWith("upload "))).toHaveLength(2);
  });

  it("extends an image by inpainting its extended canvas", async () => {
    const output = await provider.run(
      imageExtensionFeature,
      { files: { image: [await png(20, 10)] }, body: { top: 0, bottom: 6, left: 3, right: 1 } },
      live(),
    );
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 24, height: 16 });
  });

  it("upscales with the upscale model workflow", async () => {
    const output = await provider.run(
      upscalingFeature,
      { files: { image: [await png(20, 10)] }, body: {} },
      live(),
    );
    if (output.kind !== "image") throw new Error("expected an image");
    expect(await sharp(output.data).metadata()).toMatchObject({ width: 40, height: 20 });
  });

  it("interrupts a running prompt when the call is cancelled", async () => {
    fake.durationMs = 30_000;
    const controller = new AbortController();
    const running = provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "x" }, callId: "call-3" },
      controller.signal,
    );
    await expect.poll(() => fake.prompts.get("call-3")?.state, { timeout: 5_000 }).toBe("running");
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: "timeout" });
    // The cancel answers at once; when it overtook the submission's answer (a loaded machine), the
    // interrupt follows as soon as that answer is in, after the call has already ended.
    await expect.poll(() => fake.log, { timeout: 5_000 }).toContain("interrupt call-3");
    expect(fake.prompts.get("call-3")?.state).toBe("error");
  });

  it("deletes a prompt still waiting in the queue when the call is cancelled", async () => {
    fake.durationMs = 30_000;
    const firstController = new AbortController();
    const first = provider
      .run(
        imageGenerationFeature,
        { files: {}, body: { prompt: "a" }, callId: "busy" },
        firstController.signal,
      )
      .catch((error: unknown) => error);
    const controller = new AbortController();
    const second = provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "b" }, callId: "waiting" },
      controller.signal,
    );
    await expect.poll(() => fake.prompts.get("waiting")?.state, { timeout: 5_000 }).toBe("pending");
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: "timeout" });
    await expect.poll(() => fake.log, { timeout: 5_000 }).toContain("delete waiting");
    expect(fake.prompts.get("waiting")?.state).toBe("deleted");
    firstController.abort();
    expect(await first).toMatchObject({ code: "timeout" });
    expect(fake.log).toContain("interrupt busy");
  });

  it("removes a prompt that reaches ComfyUI after the call was cancelled", async () => {
    fake.durationMs = 30_000;
    const controller = new AbortController();
    const running = provider.run(
      imageGenerationFeature,
      { files: {}, body: { prompt: "late" }, callId: "late" },
      controller.signal,
    );
    // Cancelled before ComfyUI has the prompt: the caller is answered at once, and the prompt, which
    // starts as soon as it arrives on an idle instance, is interrupted when ComfyUI names it.
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: "timeout" });
    await expect.poll(() => fake.prompts.get("late")?.state, { timeout: 5_000 }).toBe("error");
    expect(fake.log).toContain("interrupt late");
  });

  it("reports a workflow that failed in execution", async () => {
    fake.failNextWith = "CUDA out of memory";
    await expect(
      provider.run(imageGenerationFeature, { files: {}, body: { prompt: "x" } }, live()),
    ).rejects.toMatchObject({
      code: "failed",
      message: "CUDA out of memory",
    });
  });

  it("stops the start with a message naming a missing node or model", async () => {
    await expect(provider.verify()).resolves.toBeUndefined();
    fake.nodes.delete("VAEEncodeForInpaint");
    fake.checkpoints = ["v1-5-pruned-emaonly.safetensors"];
    const check = provider.verify();
    await expect(check).rejects.toThrow(
      /has no node VAEEncodeForInpaint \(node 13 of the generative-fill workflow\)/,
    );
    await expect(provider.verify()).rejects.toThrow(
      new RegExp(
        `has no ckpt_name "${SDXL_CHECKPOINT}" for CheckpointLoaderSimple \\(node 4 of the image-generation workflow\\)`,
      ),
    );
  });

  it("has one slot per instance", () => {
    expect(
      createComfyProvider({ urls: ["http://a:8188", "http://b:8188"], models: DEFAULT_COMFYUI_MODELS })
        .capacity,
    ).toEqual({ slots: 2, scope: "shared" });
  });
});

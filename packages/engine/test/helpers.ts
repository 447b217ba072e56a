import { readFile } from "node:fs/promises";
import sharp from "sharp";

/** The repository's fixtures (sources and licences in fixtures/README.md). */
export const FIXTURES = new URL("../../../fixtures/", import.meta.url);

export function readFixture(name: string): Promise<Buffer> {
  return readFile(new URL(name, FIXTURES));
}

/** A fixture scaled down so tests stay fast. */
export async function smallFixture(name: string, width: number): Promise<Buffer> {
  return sharp(await readFixture(name))
    .resize(width)
    .png()
    .toBuffer();
}

export async function rawPixels(png: Uint8Array, channels: 3 | 4 = 3) {
  let pipeline = sharp(png);
  pipeline = channels === 4 ? pipeline.ensureAlpha() : pipeline.removeAlpha();
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A white-on-black PNG mask with one filled rectangle. */
export function rectangleMask(
  width: number,
  height: number,
  rect: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height);
  for (let y = rect.top; y < rect.top + rect.height; y++) {
    pixels.fill(255, y * width + rect.left, y * width + rect.left + rect.width);
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/** Draws text over an image with an SVG overlay (DejaVu or any installed sans-serif font). */
export function drawText(
  image: Buffer,
  width: number,
  height: number,
  lines: { text: string; x: number; y: number; size: number; fill: string }[],
): Promise<Buffer> {
  const body = lines
    .map(
      (line) =>
        `<text x="${line.x}" y="${line.y}" font-size="${line.size}" font-family="sans-serif" font-weight="bold" fill="${line.fill}">${line.text}</text>`,
    )
    .join("");
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
  return sharp(image)
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

export { pcmToWav } from "../src/lib/wav";
export { psnr } from "./quality";

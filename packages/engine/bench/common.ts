/**
 * What the benchmark and the quality gallery share: the repository's fixtures as RGB, square holes, and
 * captions drawn over photos whose clean version is the truth.
 */
import sharp from "sharp";
import { FIXTURES } from "../test/helpers";

export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

export function fixturePath(name: string): string {
  return new URL(`images/${name}`, FIXTURES).pathname;
}

/** Decodes to 3-channel RGB (greyscale textures included). */
export async function rgbOf(input: Buffer | Uint8Array | string): Promise<Rgb> {
  const { data, info } = await sharp(input)
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** A fixture as RGB, resized to `width` when given. */
export async function fixture(name: string, width?: number): Promise<Rgb> {
  const pipeline = sharp(fixturePath(name));
  return rgbOf(await (width ? pipeline.resize({ width }) : pipeline).png().toBuffer());
}

export function pngOf(image: Rgb): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png()
    .toBuffer();
}

export function maskPng(mask: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/** Where the object-removal benchmark puts its holes, as fractions of the image's width and height. */
export const HOLE_CENTRES = [
  [0.5, 0.5],
  [0.3, 0.7],
  [0.72, 0.28],
] as const;

/** Textures at full size (512x512) get 40 px holes; photos are resized to 360 px wide and get 48 px. */
export const TEXTURES = ["brick.png", "grass.png", "gravel.png"];
export const PHOTOS = ["chelsea.png", "coffee.png", "astronaut.png", "rocket.jpg"];

export interface Caption {
  fixture: string;
  /** The photo is resized to this width first. */
  width: number;
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  size: number;
  fill: string;
}

/** Bold captions over busy parts of the fixtures, each drawn alone so its removal is measured alone. */
export const CAPTIONS: Caption[] = [
  { fixture: "rocket.jpg", width: 640, text: "LIMITED OFFER", x: 140, y: 300, size: 38, fill: "white" },
  { fixture: "rocket.jpg", width: 640, text: "Launch week", x: 360, y: 405, size: 24, fill: "white" },
  { fixture: "coffee.png", width: 600, text: "SALE 50% OFF", x: 30, y: 200, size: 48, fill: "white" },
  { fixture: "coffee.png", width: 600, text: "Fresh coffee daily", x: 40, y: 360, size: 26, fill: "black" },
  { fixture: "chelsea.png", width: 451, text: "HELLO KITTY", x: 60, y: 170, size: 40, fill: "white" },
  { fixture: "astronaut.png", width: 512, text: "MISSION CONTROL", x: 40, y: 420, size: 40, fill: "yellow" },
  { fixture: "gravel.png", width: 512, text: "LIMITED OFFER", x: 40, y: 270, size: 38, fill: "white" },
  { fixture: "grass.png", width: 512, text: "FRESH LAWN", x: 30, y: 300, size: 64, fill: "yellow" },
  { fixture: "gravel.png", width: 512, text: "open 24/7", x: 300, y: 120, size: 24, fill: "white" },
];

export interface Captioned {
  clean: Rgb;
  /** The captioned image as PNG bytes. */
  png: Buffer;
  texted: Rgb;
  /** 1 where the caption changed the pixel. */
  text: Uint8Array;
  /** The text pixels grown by 3 px: the area the previous benchmark measured. */
  area: Uint8Array;
}

export async function captioned(caption: Caption): Promise<Captioned> {
  const clean = await fixture(caption.fixture, caption.width);
  const { width, height } = clean;
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><text x="${caption.x}" y="${caption.y}" font-size="${caption.size}" font-family="DejaVu Sans, sans-serif" font-weight="bold" fill="${caption.fill}">${caption.text}</text></svg>`;
  const png = await sharp(await pngOf(clean))
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
  const texted = await rgbOf(png);
  const text = new Uint8Array(width * height);
  for (let p = 0; p < text.length; p++) {
    for (let c = 0; c < 3; c++) if (texted.data[p * 3 + c] !== clean.data[p * 3 + c]) text[p] = 1;
  }
  const area = new Uint8Array(text.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!text[y * width + x]) continue;
      for (let dy = -3; dy <= 3; dy++) {
        for (let dx = -3; dx <= 3; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) area[ny * width + nx] = 1;
        }
      }
    }
  }
  return { clean, png, texted, text, area };
}

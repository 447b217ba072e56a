import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/helpers";
import { detailRatio, flatFill, psnr, seamRatio, squareMask } from "../../test/quality";
import { completeImage, LEGACY_COMPLETION } from "./patchmatch";

interface Rgb {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** A fixture as RGB (the textures are greyscale PNGs), optionally resized to `width`. */
async function load(name: string, width?: number): Promise<Rgb> {
  let pipeline = sharp(new URL(`images/${name}`, FIXTURES).pathname)
    .removeAlpha()
    .toColourspace("srgb");
  if (width) pipeline = pipeline.resize({ width });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

const inside = (mask: Uint8Array) => (pixel: number) => mask[pixel] !== 0;

// brick, grass, gravel: CC0 textures from scikit-image's sample data (see fixtures/README.md), 512x512.
describe("completing a 40x40 hole in a texture", () => {
  const textures: Record<string, Rgb> = {};
  beforeAll(async () => {
    for (const name of ["brick.png", "grass.png", "gravel.png"]) textures[name] = await load(name);
  });

  it.each(["brick.png", "grass.png", "gravel.png"])(
    "keeps at least 0.7 of the original's detail in %s, where the previous version's blur kept under half",
    (name) => {
      const { rgb, width, height } = textures[name]!;
      const mask = squareMask(width, height, 40, 0.5, 0.5);
      const filled = completeImage(rgb, width, height, mask);
      const previous = completeImage(rgb, width, height, mask, LEGACY_COMPLETION);
      expect(detailRatio(filled, rgb, width, height, mask)).toBeGreaterThanOrEqual(0.7);
      expect(detailRatio(previous, rgb, width, height, mask)).toBeLessThan(0.5);
    },
  );

  it("continues brick courses closer to the truth than a flat fill by more than 1 dB", () => {
    const { rgb, width, height } = textures["brick.png"]!;
    const mask = squareMask(width, height, 40, 0.5, 0.5);
    const filled = completeImage(rgb, width, height, mask);
    const flat = flatFill(rgb, width, height, mask);
    expect(psnr(filled, rgb, inside(mask))).toBeGreaterThan(psnr(flat, rgb, inside(mask)) + 1);
  });

  it("extends grass beyond the image's edge with its texture, not a smear", async () => {
    const { rgb, width, height } = await load("grass.png", 256);
    // The right-hand 48 columns are cut off and grown back from the rest.
    const mask = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) mask.fill(255, y * width + width - 48, (y + 1) * width);
    const filled = completeImage(rgb, width, height, mask);
    const previous = completeImage(rgb, width, height, mask, LEGACY_COMPLETION);
    expect(detailRatio(filled, rgb, width, height, mask)).toBeGreaterThanOrEqual(0.7);
    expect(detailRatio(previous, rgb, width, height, mask)).toBeLessThan(0.5);
  });
});

describe("completing a hole in a photo", () => {
  it("joins the fill to its surroundings without a visible outline", async () => {
    // chelsea.png: scikit-image sample data (photo by Stefan van der Walt), CC0.
    const { rgb, width, height } = await load("chelsea.png", 360);
    const mask = squareMask(width, height, 48, 0.5, 0.5);
    const filled = completeImage(rgb, width, height, mask);
    const previous = completeImage(rgb, width, height, mask, LEGACY_COMPLETION);
    // About 1 when the steps across the hole's outline are like the original's there.
    expect(seamRatio(filled, rgb, width, height, mask)).toBeLessThan(1.1);
    expect(seamRatio(previous, rgb, width, height, mask)).toBeGreaterThan(1.2);
    expect(psnr(filled, rgb, inside(mask))).toBeGreaterThan(
      psnr(flatFill(rgb, width, height, mask), rgb, inside(mask)),
    );
  });

  it("reproduces a smooth ramp exactly although every copy comes from another brightness", () => {
    const width = 160;
    const height = 100;
    const rgb = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        rgb.set([40 + x, 200 - y, 90], (y * width + x) * 3);
      }
    }
    const mask = squareMask(width, height, 40, 0.5, 0.5);
    const filled = completeImage(rgb, width, height, mask);
    expect(psnr(filled, rgb)).toBe(Number.POSITIVE_INFINITY);
    // The previous version's averaged copies leave visible steps.
    expect(psnr(completeImage(rgb, width, height, mask, LEGACY_COMPLETION), rgb, inside(mask))).toBeLessThan(
      40,
    );
  });

  it("returns the pixels outside the hole unchanged and is reproducible", async () => {
    const { rgb, width, height } = await load("coffee.png", 200);
    const mask = squareMask(width, height, 30, 0.4, 0.6);
    const first = completeImage(rgb, width, height, mask);
    for (let p = 0; p < mask.length; p++) {
      if (!mask[p]) expect(first.subarray(p * 3, p * 3 + 3)).toEqual(rgb.subarray(p * 3, p * 3 + 3));
    }
    expect(completeImage(rgb, width, height, mask)).toEqual(first);
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPixels, readFixture } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";
import { blendTiles, planTiles } from "../lib/tiles";

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ workers: 2 });
});
afterAll(() => engine.close());

describe("upscaling", () => {
  it("doubles the size of an image and stays close to the original", async () => {
    // astronaut.png: scikit-image sample data (NASA portrait of Eileen Collins), public domain.
    const original = await sharp(await readFixture("images/astronaut.png"))
      .removeAlpha()
      .resize(200, 120)
      .png()
      .toBuffer();
    const image = await sharp(original).resize(100, 60).png().toBuffer();
    const output = await engine.run("image-upscaling", { image });
    if (output.kind !== "image") throw new Error("expected an image");
    expect([output.width, output.height]).toEqual([200, 120]);
    const result = await rawPixels(output.png);
    const reference = await rawPixels(original);
    let squared = 0;
    for (let i = 0; i < result.data.length; i++) squared += (result.data[i]! - reference.data[i]!) ** 2;
    const psnr = 10 * Math.log10((255 * 255) / (squared / result.data.length));
    expect(psnr).toBeGreaterThan(20);
  });
});

describe("tiling", () => {
  it("covers the image with overlapping tiles", () => {
    const tiles = planTiles(250, 100, 96, 12);
    expect(tiles.every((t) => t.width <= 96 && t.height <= 96)).toBe(true);
    expect(Math.max(...tiles.map((t) => t.x + t.width))).toBe(250);
    expect(Math.max(...tiles.map((t) => t.y + t.height))).toBe(100);
  });

  it("joins tiles of a flat image without seams", () => {
    const tiles = planTiles(50, 40, 24, 6).map((tile) => ({
      tile,
      rgb: new Uint8Array(tile.width * tile.height * 4 * 3).fill(90),
    }));
    const joined = blendTiles(tiles, 50, 40, 2, 6);
    expect(joined.length).toBe(100 * 80 * 3);
    expect(joined.every((v) => v === 90)).toBe(true);
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drawText, psnr, rawPixels, readFixture } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";

let engine: Engine;
let clean: Buffer;
let texted: Buffer;
const WIDTH = 240;
const HEIGHT = 160;
const TEXT_AREA = { top: 10, bottom: 50, left: 10, right: 230 };

beforeAll(async () => {
  engine = createEngine({ workers: 1 });
  // chelsea.png: scikit-image sample data (photo by Stefan van der Walt), CC0.
  clean = await sharp(await readFixture("chelsea.png"))
    .removeAlpha()
    .resize(WIDTH, HEIGHT)
    .png()
    .toBuffer();
  texted = await drawText(clean, WIDTH, HEIGHT, [
    { text: "HELLO 2026", x: 16, y: 42, size: 30, fill: "white" },
  ]);
});
afterAll(() => engine.close());

const inTextArea = (p: number) => {
  const x = p % WIDTH;
  const y = Math.floor(p / WIDTH);
  return x >= TEXT_AREA.left && x < TEXT_AREA.right && y >= TEXT_AREA.top && y < TEXT_AREA.bottom;
};

describe("text removal", () => {
  it.each([false, true])("paints the text out (fast_mode %s)", async (fastMode) => {
    const output = await engine.run("text-removal", { image: texted, fast_mode: fastMode });
    if (output.kind !== "image") throw new Error("expected an image");
    expect([output.width, output.height]).toEqual([WIDTH, HEIGHT]);
    const result = await rawPixels(output.png);
    const original = await rawPixels(clean);
    const input = await rawPixels(texted);
    const before = psnr(input.data, original.data, inTextArea);
    const after = psnr(result.data, original.data, inTextArea);
    expect(after).toBeGreaterThan(before + 3);
    // Far from the text nothing changes.
    expect(psnr(result.data, input.data, (p) => Math.floor(p / WIDTH) > 100)).toBe(Number.POSITIVE_INFINITY);
  });

  it("returns an image without text unchanged", async () => {
    const output = await engine.run("text-removal", { image: clean });
    if (output.kind !== "image") throw new Error("expected an image");
    const result = await rawPixels(output.png);
    const original = await rawPixels(clean);
    expect(psnr(result.data, original.data)).toBeGreaterThan(45);
  });
});

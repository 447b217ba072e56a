import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPixels, rectangleMask, smallFixture } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";

// chelsea.png: scikit-image sample data (photo by Stefan van der Walt), CC0; see fixtures/README.md.
const WIDTH = 120;
let engine: Engine;
let image: Buffer;

beforeAll(async () => {
  engine = createEngine({ workers: 1 });
  image = await smallFixture("images/chelsea.png", WIDTH);
});
afterAll(() => engine.close());

describe("object removal", () => {
  it.each([
    ["a thin stroke (Telea)", { left: 20, top: 30, width: 60, height: 3 }],
    ["a large area (PatchMatch)", { left: 30, top: 20, width: 40, height: 30 }],
  ])("changes only the masked pixels of %s", async (_name, rect) => {
    const original = await rawPixels(image);
    const mask = await rectangleMask(original.width, original.height, rect);
    const output = await engine.run("object-removal", { image, mask });
    expect(output.kind).toBe("image");
    if (output.kind !== "image") return;
    expect(output.png.subarray(1, 4).toString()).toBe("PNG");
    const result = await rawPixels(output.png);
    expect([result.width, result.height]).toEqual([original.width, original.height]);
    let changedInside = 0;
    let changedOutside = 0;
    for (let y = 0; y < result.height; y++) {
      for (let x = 0; x < result.width; x++) {
        const inside =
          x >= rect.left && x < rect.left + rect.width && y >= rect.top && y < rect.top + rect.height;
        const i = (y * result.width + x) * 3;
        const same = [0, 1, 2].every((c) => result.data[i + c] === original.data[i + c]);
        if (inside && !same) changedInside++;
        if (!inside && !same) changedOutside++;
      }
    }
    expect(changedOutside).toBe(0);
    expect(changedInside).toBeGreaterThan(rect.width * rect.height * 0.5);
  });

  it("rejects an empty mask", async () => {
    const mask = await rectangleMask(WIDTH, 80, { left: 0, top: 0, width: 0, height: 0 });
    await expect(engine.run("object-removal", { image, mask })).rejects.toMatchObject({
      code: "invalid-input",
    });
  });
});

describe("image extension", () => {
  it("adds the requested borders and keeps the original pixels", async () => {
    const original = await rawPixels(image);
    const output = await engine.run("image-extension", { image, top: 10, bottom: 0, left: 20, right: 5 });
    if (output.kind !== "image") throw new Error("expected an image");
    const result = await rawPixels(output.png);
    expect([output.width, output.height]).toEqual([original.width + 25, original.height + 10]);
    expect([result.width, result.height]).toEqual([output.width, output.height]);
    for (let y = 0; y < original.height; y += 7) {
      for (let x = 0; x < original.width; x += 5) {
        const i = (y * original.width + x) * 3;
        const j = ((y + 10) * result.width + x + 20) * 3;
        expect([...result.data.subarray(j, j + 3)]).toEqual([...original.data.subarray(i, i + 3)]);
      }
    }
    // The new strip is filled with image content, not left black.
    let sum = 0;
    for (let x = 0; x < result.width; x++) sum += result.data[(2 * result.width + x) * 3]!;
    expect(sum / result.width).toBeGreaterThan(20);
  });

  it("refuses a result wider than 4096 px", async () => {
    await expect(
      engine.run("image-extension", { image, top: 0, bottom: 0, left: 4096, right: 0 }),
    ).rejects.toMatchObject({ code: "invalid-input" });
  });
});

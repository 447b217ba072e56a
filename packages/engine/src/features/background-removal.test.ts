import { NO_FOREGROUND_FOUND } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPixels, smallFixture } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ workers: 1 });
});
afterAll(() => engine.close());

describe("background removal", () => {
  it("returns a PNG of the same size whose background is transparent", async () => {
    // astronaut.png: scikit-image sample data (NASA portrait of Eileen Collins), public domain.
    const image = await smallFixture("images/astronaut.png", 128);
    const output = await engine.run("image-background-removal", { image });
    if (output.kind !== "image") throw new Error("expected an image");
    expect([output.width, output.height]).toEqual([128, 128]);
    const result = await rawPixels(output.png, 4);
    expect(result.channels).toBe(4);
    const alpha = (x: number, y: number) => result.data[(y * result.width + x) * 4 + 3]!;
    // The portrait's face is opaque; the top-right corner (wall and flag) is not part of the subject.
    expect(alpha(60, 45)).toBeGreaterThan(200);
    expect(alpha(125, 2)).toBeLessThan(60);
  });

  it("refuses a photo with no subject instead of returning an all-clear image (issue 27)", async () => {
    // grass.png and gravel.png: scikit-image sample data (CC0 textures): nothing stands out to cut.
    for (const name of ["images/grass.png", "images/gravel.png"]) {
      const image = await smallFixture(name, 256);
      await expect(engine.run("image-background-removal", { image }), name).rejects.toMatchObject({
        code: "invalid-input",
        message: NO_FOREGROUND_FOUND,
      });
    }
  });
});

import { NO_FACE_IN_SOURCE, NO_FACE_IN_TARGET } from "@prism/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPixels, readFixture, rectangleMask } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";

let engine: Engine;
let source: Buffer;
let target: Buffer;
const SIDE = 256;

beforeAll(async () => {
  engine = createEngine({ workers: 1 });
  // astronaut.png: scikit-image sample data (NASA portrait of Eileen Collins), public domain. The target
  // is the same portrait mirrored and tinted, so the swapped face differs from the target's own.
  const portrait = await readFixture("images/astronaut.png");
  source = await sharp(portrait).removeAlpha().resize(SIDE).png().toBuffer();
  target = await sharp(portrait).removeAlpha().resize(SIDE).flop().modulate({ hue: 30 }).png().toBuffer();
});
afterAll(() => engine.close());

function changedPixels(a: Uint8Array, b: Uint8Array, width: number) {
  const changed: [number, number][] = [];
  for (let p = 0; p < a.length / 3; p++) {
    if (a[p * 3] !== b[p * 3] || a[p * 3 + 1] !== b[p * 3 + 1] || a[p * 3 + 2] !== b[p * 3 + 2]) {
      changed.push([p % width, Math.floor(p / width)]);
    }
  }
  return changed;
}

describe("face swapping", () => {
  it("changes the target's face and nothing else", async () => {
    const output = await engine.run("face-swapping", { source, target });
    if (output.kind !== "image") throw new Error("expected an image");
    expect([output.width, output.height]).toEqual([SIDE, SIDE]);
    const result = await rawPixels(output.png);
    const original = await rawPixels(target);
    const changed = changedPixels(result.data, original.data, SIDE);
    expect(changed.length).toBeGreaterThan(1_000);
    // The face sits in the upper middle of the portrait; the suit and the background stay as they were.
    for (const [x, y] of changed) {
      expect(y).toBeLessThan(SIDE * 0.6);
      expect(x).toBeGreaterThan(SIDE * 0.2);
    }
  });

  it("changes nothing outside a custom mask", async () => {
    const rect = { left: 100, top: 60, width: 40, height: 30 };
    const mask = await rectangleMask(SIDE, SIDE, rect);
    const output = await engine.run("face-swapping", { source, target, mask });
    if (output.kind !== "image") throw new Error("expected an image");
    const changed = changedPixels((await rawPixels(output.png)).data, (await rawPixels(target)).data, SIDE);
    expect(changed.length).toBeGreaterThan(0);
    for (const [x, y] of changed) {
      expect(
        x >= rect.left && x < rect.left + rect.width && y >= rect.top && y < rect.top + rect.height,
      ).toBe(true);
    }
  });

  it("fails with no-face when an image has no face", async () => {
    // chelsea.png: scikit-image sample data (photo by Stefan van der Walt), CC0: a cat, no human face.
    const cat = await sharp(await readFixture("images/chelsea.png"))
      .resize(200)
      .png()
      .toBuffer();
    await expect(engine.run("face-swapping", { source: cat, target })).rejects.toMatchObject({
      code: "no-face",
    });
    await expect(engine.run("face-swapping", { source, target: cat })).rejects.toMatchObject({
      code: "no-face",
    });
  });

  it("finds no face on a rocket on its launch pad, as target or as source (issue 27)", async () => {
    // rocket.jpg: scikit-image sample data (SpaceX, Falcon 9 on Launch Complex 40), public domain. The face
    // detector proposed a low-confidence "face" on the pad, onto which a face used to be pasted and charged.
    const rocket = await readFixture("images/rocket.jpg");
    await expect(engine.run("face-swapping", { source, target: rocket })).rejects.toMatchObject({
      code: "no-face",
      message: NO_FACE_IN_TARGET,
    });
    await expect(engine.run("face-swapping", { source: rocket, target })).rejects.toMatchObject({
      code: "no-face",
      message: NO_FACE_IN_SOURCE,
    });
  });
});

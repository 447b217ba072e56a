import { describe, expect, it } from "vitest";
import { fillMembrane } from "./poisson";

/** A 64x48 image whose channels are planes (linear in x and y), which the membrane reproduces exactly. */
function planes(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      rgb[i] = 20 + 3 * x;
      rgb[i + 1] = 200 - 2 * y;
      rgb[i + 2] = 40 + x + y;
    }
  }
  return rgb;
}

describe("the membrane fill", () => {
  const width = 64;
  const height = 48;
  const truth = planes(width, height);

  it("rebuilds a smooth gradient under a thick hole, the image's border included, and nothing else", () => {
    const mask = new Uint8Array(width * height);
    // A bold letter-like block, and a stroke that runs off the top and the left edge.
    for (let y = 10; y < 40; y++) for (let x = 20; x < 44; x++) mask[y * width + x] = 255;
    for (let y = 0; y < 6; y++) for (let x = 0; x < 30; x++) mask[y * width + x] = 255;
    const damaged = new Uint8Array(truth);
    for (let i = 0; i < mask.length; i++) if (mask[i]) damaged.fill(255, i * 3, i * 3 + 3);

    const filled = fillMembrane(damaged, width, height, mask);

    let inner = 0;
    let edge = 0;
    for (let i = 0; i < mask.length; i++) {
      for (let c = 0; c < 3; c++) {
        const error = Math.abs(filled[i * 3 + c]! - truth[i * 3 + c]!);
        if (!mask[i]) expect(filled[i * 3 + c]).toBe(damaged[i * 3 + c]);
        else if (i < 6 * width) edge = Math.max(edge, error);
        else inner = Math.max(inner, error);
      }
    }
    // A plane meets Laplace's equation, so the enclosed block comes back to the rounding.
    expect(inner).toBeLessThanOrEqual(1);
    // Along the image's edge the fill has no neighbour beyond it and levels off (the green plane falls
    // by 2 a row, so 6 rows flattened cost at most 12), but it is filled from its surroundings.
    expect(edge).toBeLessThanOrEqual(13);
  });

  it("returns the image unchanged without a mask and refuses a mask over everything", () => {
    expect(fillMembrane(truth, width, height, new Uint8Array(width * height))).toEqual(truth);
    expect(() => fillMembrane(truth, width, height, new Uint8Array(width * height).fill(255))).toThrow(
      RangeError,
    );
  });
});

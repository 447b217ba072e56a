import { describe, expect, it } from "vitest";
import { fitExtension, hasExtension, maxExtension, NO_EXTENSION, setExtension } from "./extension-bounds";

const image = { width: 1000, height: 3000 };

describe("maxExtension", () => {
  it("is 4096 minus the image's dimension on that axis", () => {
    expect(maxExtension("top", image)).toBe(1096);
    expect(maxExtension("bottom", image)).toBe(1096);
    expect(maxExtension("left", image)).toBe(3096);
    expect(maxExtension("right", image)).toBe(3096);
  });

  it("is never below 0", () => {
    expect(maxExtension("top", { width: 100, height: 4096 })).toBe(0);
    expect(maxExtension("left", { width: 5000, height: 100 })).toBe(0);
  });
});

describe("setExtension", () => {
  it("sets a side within its range and leaves the other axis alone", () => {
    const sides = setExtension({ ...NO_EXTENSION, left: 40 }, "top", 500, image);
    expect(sides).toEqual({ top: 500, bottom: 0, left: 40, right: 0 });
  });

  it("clamps a side to 0 and its maximum, rounding to whole pixels", () => {
    expect(setExtension(NO_EXTENSION, "top", 5000, image).top).toBe(1096);
    expect(setExtension(NO_EXTENSION, "top", -3, image).top).toBe(0);
    expect(setExtension(NO_EXTENSION, "right", 12.6, image).right).toBe(13);
    expect(setExtension(NO_EXTENSION, "right", Number.NaN, image).right).toBe(0);
  });

  it("reduces the opposite side so both plus the image stay within 4096", () => {
    const start = { top: 600, bottom: 400, left: 0, right: 0 };
    const sides = setExtension(start, "top", 900, image);
    expect(sides.top).toBe(900);
    expect(sides.bottom).toBe(196);
    expect(sides.top + sides.bottom + image.height).toBe(4096);

    const horizontal = setExtension({ top: 0, bottom: 0, left: 3000, right: 0 }, "right", 200, image);
    expect(horizontal).toEqual({ top: 0, bottom: 0, left: 2896, right: 200 });
  });

  it("keeps the opposite side when the sum still fits", () => {
    const sides = setExtension({ top: 100, bottom: 300, left: 0, right: 0 }, "top", 200, image);
    expect(sides).toEqual({ top: 200, bottom: 300, left: 0, right: 0 });
  });
});

describe("fitExtension", () => {
  it("brings all sides within a new image's bounds", () => {
    const sides = fitExtension(
      { top: 1000, bottom: 1000, left: 2000, right: 2000 },
      { width: 3000, height: 3500 },
    );
    expect(sides.top + sides.bottom).toBeLessThanOrEqual(596);
    expect(sides.left + sides.right).toBeLessThanOrEqual(1096);
    expect(sides.top).toBe(596);
    expect(sides.left).toBe(1096);
  });

  it("zeroes everything for an image already 4096 on both axes", () => {
    expect(fitExtension({ top: 5, bottom: 5, left: 5, right: 5 }, { width: 4096, height: 4096 })).toEqual(
      NO_EXTENSION,
    );
  });
});

describe("hasExtension", () => {
  it("is false only when all four sides are zero", () => {
    expect(hasExtension(NO_EXTENSION)).toBe(false);
    expect(hasExtension({ ...NO_EXTENSION, right: 1 })).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import {
  createMask,
  displayToImage,
  invertMask,
  isMaskEmpty,
  maskToOpaqueRgba,
  maskToOverlayRgba,
  overlayRgbaRegion,
  paintSegment,
  paintStroke,
  unionRect,
} from "./mask-math";

const at = (mask: Uint8Array, width: number, x: number, y: number) => mask[y * width + x];
const count = (mask: Uint8Array) => mask.reduce((sum, v) => sum + (v ? 1 : 0), 0);

describe("displayToImage", () => {
  it("maps a pointer on the scaled display to full-resolution pixels", () => {
    const box = { left: 100, top: 50, width: 400, height: 300 };
    expect(displayToImage(100, 50, box, 4000, 3000)).toEqual({ x: 0, y: 0 });
    expect(displayToImage(300, 200, box, 4000, 3000)).toEqual({ x: 2000, y: 1500 });
    expect(displayToImage(500, 350, box, 4000, 3000)).toEqual({ x: 4000, y: 3000 });
    // Outside the image is not clamped (a stroke may start just off the edge).
    expect(displayToImage(90, 50, box, 4000, 3000)).toEqual({ x: -100, y: 0 });
  });

  it("returns null while the display has no size", () => {
    expect(displayToImage(1, 1, { left: 0, top: 0, width: 0, height: 0 }, 10, 10)).toBeNull();
  });
});

describe("paintStroke", () => {
  it("paints a disc for a single point, with the pixel-centre rule", () => {
    const mask = new Uint8Array(20 * 20);
    const dirty = paintStroke(mask, 20, 20, [{ x: 10, y: 10 }], 3, "draw");
    expect(dirty).toEqual({ x: 7, y: 7, width: 6, height: 6 });
    expect(at(mask, 20, 10, 10)).toBe(255);
    expect(at(mask, 20, 7, 9)).toBe(255); // centre (7.5, 9.5) is 2.55 away
    expect(at(mask, 20, 7, 7)).toBe(0); // corner of the box is outside the circle
    // Area close to π r² (28.3).
    expect(count(mask)).toBeGreaterThanOrEqual(24);
    expect(count(mask)).toBeLessThanOrEqual(32);
  });

  it("interpolates between far-apart points so fast strokes have no gaps", () => {
    const width = 200;
    const mask = new Uint8Array(width * 50);
    paintStroke(
      mask,
      width,
      50,
      [
        { x: 5, y: 25 },
        { x: 195, y: 25 },
      ],
      2,
      "draw",
    );
    for (let x = 5; x < 195; x++) expect(at(mask, width, x, 25)).toBe(255);
    expect(at(mask, width, 100, 20)).toBe(0);
  });

  it("covers a diagonal capsule with round caps and no holes", () => {
    const n = 64;
    const mask = new Uint8Array(n * n);
    const a = { x: 10, y: 10 };
    const b = { x: 50, y: 40 };
    const r = 5;
    paintStroke(mask, n, n, [a, b], r, "draw");
    // Compare with the exact distance-to-segment rule.
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    let mismatches = 0;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / len2));
        const d = Math.hypot(px - (a.x + t * dx), py - (a.y + t * dy));
        if (d <= r !== (at(mask, n, x, y) === 255)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it("joins polyline points with round joins", () => {
    const mask = new Uint8Array(100 * 100);
    const points = [
      { x: 10, y: 10 },
      { x: 90, y: 10 },
      { x: 90, y: 90 },
    ];
    const dirty = paintStroke(mask, 100, 100, points, 4, "draw");
    expect(dirty).toEqual({ x: 6, y: 6, width: 88, height: 88 });
    expect(at(mask, 100, 92, 8)).toBe(255); // inside the rounded outer corner of the join
    expect(at(mask, 100, 93, 6)).toBe(0); // a square join would fill this one
    expect(at(mask, 100, 50, 10)).toBe(255);
    expect(at(mask, 100, 90, 50)).toBe(255);
    expect(at(mask, 100, 50, 50)).toBe(0);
  });

  it("erases to zero and clips to the mask", () => {
    const mask = new Uint8Array(10 * 10).fill(255);
    const dirty = paintStroke(mask, 10, 10, [{ x: 0, y: 0 }], 3, "erase");
    expect(dirty?.x).toBe(0);
    expect(dirty?.y).toBe(0);
    expect(at(mask, 10, 0, 0)).toBe(0);
    expect(at(mask, 10, 9, 9)).toBe(255);
    expect(paintStroke(mask, 10, 10, [{ x: -50, y: -50 }], 3, "erase")).toBeNull();
    expect(paintStroke(mask, 10, 10, [], 3, "draw")).toBeNull();
  });

  it("is fast on a 4096×4096 mask", () => {
    const size = 4096;
    const mask = new Uint8Array(size * size);
    const points = Array.from({ length: 200 }, (_, i) => ({
      x: (i * 97) % size,
      y: (i * 211) % size,
    }));
    const started = performance.now();
    paintStroke(mask, size, size, points, 200, "draw");
    const filled = maskToOpaqueRgba(mask);
    const inverted = invertMask(mask);
    expect(isMaskEmpty(inverted)).toBe(false);
    expect(filled.length).toBe(size * size * 4);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("paintSegment reports the clamped dirty rectangle", () => {
    const mask = new Uint8Array(30 * 30);
    expect(paintSegment(mask, 30, 30, { x: 25, y: 15 }, { x: 40, y: 15 }, 2, 255)).toEqual({
      x: 23,
      y: 13,
      width: 7,
      height: 4,
    });
  });
});

describe("mask helpers", () => {
  it("inverts and detects empty masks", () => {
    const mask = new Uint8Array([0, 255, 0, 255, 128]);
    expect(Array.from(invertMask(mask))).toEqual([255, 0, 255, 0, 127]);
    expect(isMaskEmpty(new Uint8Array(4097))).toBe(true);
    const last = new Uint8Array(4097);
    last[4096] = 1;
    expect(isMaskEmpty(last)).toBe(false);
    const word = new Uint8Array(16);
    word[5] = 255;
    expect(isMaskEmpty(word)).toBe(false);
    // Unaligned views work too.
    const buffer = new Uint8Array(9);
    buffer[8] = 255;
    expect(isMaskEmpty(buffer.subarray(1))).toBe(false);
    expect(isMaskEmpty(buffer.subarray(1, 8))).toBe(true);
  });

  it("copies an initial mask only when the size matches", () => {
    const initial = new Uint8Array([255, 0, 0, 255]);
    const copy = createMask(2, 2, initial);
    expect(Array.from(copy)).toEqual([255, 0, 0, 255]);
    expect(copy).not.toBe(initial);
    expect(isMaskEmpty(createMask(3, 2, initial))).toBe(true);
  });

  it("turns a mask into opaque black/white RGBA", () => {
    expect(Array.from(maskToOpaqueRgba(new Uint8Array([255, 0])))).toEqual([
      255, 255, 255, 255, 0, 0, 0, 255,
    ]);
  });

  it("turns a mask into a transparent white overlay", () => {
    const mask = new Uint8Array([255, 0, 0, 255]);
    expect(Array.from(maskToOverlayRgba(mask, 2))).toEqual([
      255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255,
    ]);
    expect(Array.from(maskToOverlayRgba(new Uint8Array([255, 0]), 2, 128))).toEqual([
      255, 255, 255, 128, 0, 0, 0, 0,
    ]);
    expect(Array.from(overlayRgbaRegion(mask, 2, { x: 1, y: 1, width: 1, height: 1 }))).toEqual([
      255, 255, 255, 255,
    ]);
  });

  it("tints the displayed overlay with the given colour, keeping transparency outside the mask", () => {
    const mask = new Uint8Array([255, 0, 128]);
    expect(
      Array.from(overlayRgbaRegion(mask, 3, { x: 0, y: 0, width: 3, height: 1 }, 255, [10, 20, 30])),
    ).toEqual([10, 20, 30, 255, 0, 0, 0, 0, 10, 20, 30, 128]);
    // A different colour at the same alpha is not served from the first one's table.
    expect(
      Array.from(overlayRgbaRegion(mask, 3, { x: 0, y: 0, width: 1, height: 1 }, 255, [1, 2, 3])),
    ).toEqual([1, 2, 3, 255]);
    expect(Array.from(overlayRgbaRegion(mask, 3, { x: 0, y: 0, width: 1, height: 1 }))).toEqual([
      255, 255, 255, 255,
    ]);
  });

  it("unions rectangles", () => {
    expect(unionRect(null, null)).toBeNull();
    expect(unionRect({ x: 0, y: 0, width: 2, height: 2 }, { x: 5, y: 1, width: 1, height: 4 })).toEqual({
      x: 0,
      y: 0,
      width: 6,
      height: 5,
    });
  });
});

import { describe, expect, it } from "vitest";
import { jpegFileName, keptCount, trainingImageSize } from "./training-images";

describe("trainingImageSize", () => {
  it("scales a landscape photo down so its height (the short side) is 1024", () => {
    expect(trainingImageSize({ width: 4000, height: 3000 })).toEqual({ width: 1365, height: 1024 });
  });

  it("scales a portrait photo so its width is 1024", () => {
    expect(trainingImageSize({ width: 3024, height: 4032 })).toEqual({ width: 1024, height: 1365 });
  });

  it("scales a small photo up", () => {
    expect(trainingImageSize({ width: 640, height: 800 })).toEqual({ width: 1024, height: 1280 });
  });

  it("keeps a square photo square and leaves a 1024 short side alone", () => {
    expect(trainingImageSize({ width: 512, height: 512 })).toEqual({ width: 1024, height: 1024 });
    expect(trainingImageSize({ width: 1024, height: 2000 })).toEqual({ width: 1024, height: 2000 });
  });

  it("never rounds the long side below the short side", () => {
    expect(trainingImageSize({ width: 1001, height: 1000 })).toEqual({ width: 1025, height: 1024 });
  });

  it("refuses an empty image", () => {
    expect(() => trainingImageSize({ width: 0, height: 10 })).toThrow();
  });
});

describe("keptCount", () => {
  it("keeps at most 15 photos in all", () => {
    expect(keptCount(0, 16)).toBe(15);
    expect(keptCount(9, 10)).toBe(6);
    expect(keptCount(15, 1)).toBe(0);
    expect(keptCount(3, 4)).toBe(4);
  });
});

describe("jpegFileName", () => {
  it("gives the photo a .jpg extension", () => {
    expect(jpegFileName("me at the beach.PNG")).toBe("me at the beach.jpg");
    expect(jpegFileName("portrait.webp")).toBe("portrait.jpg");
    expect(jpegFileName("noext")).toBe("noext.jpg");
    expect(jpegFileName(".png")).toBe("photo.jpg");
  });
});

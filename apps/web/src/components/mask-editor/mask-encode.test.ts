import { afterEach, describe, expect, it, vi } from "vitest";
import { blackJpeg, encodeRgba, maskToOpaquePng } from "./mask-encode";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("mask encoding", () => {
  it("rejects instead of hanging where there is no canvas (jsdom)", async () => {
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
    await expect(encodeRgba(new Uint8ClampedArray(4), 1, 1)).rejects.toThrow(/not available/);
    await expect(blackJpeg(2, 2)).rejects.toThrow(/not available/);
  });

  it("draws a full-size black JPEG at quality 1 and PNGs through the canvas", async () => {
    const fillRect = vi.fn();
    const putImageData = vi.fn();
    const context = {
      fillStyle: "",
      fillRect,
      putImageData,
      createImageData: (width: number, height: number) => ({
        data: new Uint8ClampedArray(width * height * 4),
      }),
    };
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
      () => context as unknown as CanvasRenderingContext2D,
    );
    const calls: Array<{ width: number; height: number; type?: string; quality?: unknown }> = [];
    vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation(function (
      this: HTMLCanvasElement,
      callback,
      type,
      quality,
    ) {
      calls.push({ width: this.width, height: this.height, type, quality });
      callback(new Blob(["x"], { type }));
    });

    const jpeg = await blackJpeg(640, 480);
    expect(jpeg.type).toBe("image/jpeg");
    expect(calls[0]).toEqual({ width: 640, height: 480, type: "image/jpeg", quality: 1 });
    expect(context.fillStyle).toBe("#000000");
    expect(fillRect).toHaveBeenCalledWith(0, 0, 640, 480);

    const png = await maskToOpaquePng(new Uint8Array([255, 0]), 2, 1);
    expect(png.type).toBe("image/png");
    expect(calls[1]).toMatchObject({ width: 2, height: 1, type: "image/png" });
    const image = putImageData.mock.calls[0]![0] as { data: Uint8ClampedArray };
    expect(Array.from(image.data)).toEqual([255, 255, 255, 255, 0, 0, 0, 255]);
  });
});

import { EMPTY_MASK_JPEG_QUALITY } from "@prism/contract";
import { maskToOpaqueRgba, maskToOverlayRgba } from "./mask-math";

/**
 * Encodes an RGBA buffer through an offscreen canvas. Rejects (instead of hanging) where there is no
 * canvas support, such as jsdom without a canvas stub.
 */
export function encodeRgba(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  type = "image/png",
  quality?: number,
): Promise<Blob> {
  return encodeCanvas(width, height, type, quality, (context) => {
    const image = context.createImageData(width, height);
    image.data.set(rgba);
    context.putImageData(image, 0, 0);
  });
}

function encodeCanvas(
  width: number,
  height: number,
  type: string,
  quality: number | undefined,
  paint: (context: CanvasRenderingContext2D) => void,
): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) => {
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    let context: CanvasRenderingContext2D | null = null;
    try {
      context = canvas.getContext("2d");
    } catch {
      context = null;
    }
    if (!context || typeof canvas.toBlob !== "function") {
      reject(new Error("Canvas encoding is not available in this environment."));
      return;
    }
    paint(context);
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The mask image could not be encoded."))),
      type,
      quality,
    );
  });
}

/** PNG of the opaque black/white mask (white = selected). */
export function maskToOpaquePng(mask: Uint8Array, width: number, height: number): Promise<Blob> {
  return encodeRgba(maskToOpaqueRgba(mask), width, height);
}

/** PNG of the transparent mask (selected = opaque white, the rest transparent). */
export function maskToTransparentPng(mask: Uint8Array, width: number, height: number): Promise<Blob> {
  return encodeRgba(maskToOverlayRgba(mask, width), width, height);
}

/**
 * The all-black full-size JPEG (quality 1) that face swapping sends when Use Custom Mask is
 * on but nothing was drawn.
 */
export function blackJpeg(width: number, height: number): Promise<Blob> {
  return encodeCanvas(width, height, "image/jpeg", EMPTY_MASK_JPEG_QUALITY, (context) => {
    context.fillStyle = "#000000";
    context.fillRect(0, 0, width, height);
  });
}

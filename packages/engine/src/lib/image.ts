import sharp from "sharp";
import { EngineError } from "../errors";

/** A decoded image: interleaved 8-bit pixels, row-major, `channels` per pixel. */
export interface RasterImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/** Decodes an encoded image (PNG, JPEG, WebP) to RGB or RGBA pixels, honouring EXIF orientation. */
export async function decodeImage(encoded: Uint8Array, channels: 3 | 4 = 3): Promise<RasterImage> {
  try {
    let pipeline = sharp(encoded, { failOn: "error" }).rotate();
    pipeline = channels === 4 ? pipeline.ensureAlpha() : pipeline.removeAlpha();
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      channels,
    };
  } catch (error) {
    throw new EngineError("invalid-input", "The image could not be decoded.", { cause: error });
  }
}

/**
 * Decodes a mask to one byte per pixel, 255 where the image should change: a pixel counts as masked when
 * its luminance is above the middle, so both white-on-black PNG masks and lossy JPEG masks work. A mask
 * of another size is stretched to `width` x `height`.
 */
export async function decodeMask(encoded: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  try {
    const { data } = await sharp(encoded, { failOn: "error" })
      .rotate()
      .flatten({ background: "#000000" })
      .greyscale()
      .resize(width, height, { fit: "fill", kernel: "nearest" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mask = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) {
      mask[i] = data[i]! > 127 ? 255 : 0;
    }
    return mask;
  } catch (error) {
    throw new EngineError("invalid-input", "The mask could not be decoded.", { cause: error });
  }
}

export async function encodePng(image: RasterImage): Promise<Uint8Array> {
  const png = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.length);
}

export function createImage(width: number, height: number, channels: 1 | 3 | 4): RasterImage {
  return { data: new Uint8Array(width * height * channels), width, height, channels };
}

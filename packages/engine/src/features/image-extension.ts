import { EXTENSION_SIDE_REQUIRED, MAX_EXTENSION_SIDE } from "@prism/contract";
import { EngineError } from "../errors";
import { decodeImage, encodePng } from "../lib/image";
import { completeImage } from "../lib/patchmatch";
import type { Feature } from "./feature";

const SIDES = ["top", "bottom", "left", "right"] as const;

export const imageExtension: Feature<"image-extension"> = {
  id: "image-extension",
  checkAvailability: async () => ({ available: true }),
  async run(input) {
    for (const side of SIDES) {
      const value = input[side] ?? 0;
      if (!Number.isInteger(value) || value < 0) {
        throw new EngineError("invalid-input", `${side} must be a whole number of pixels, 0 or more.`);
      }
    }
    const { top = 0, bottom = 0, left = 0, right = 0 } = input;
    if (top + bottom + left + right === 0) {
      throw new EngineError("invalid-input", EXTENSION_SIDE_REQUIRED);
    }
    const image = await decodeImage(input.image, 3);
    const width = image.width + left + right;
    const height = image.height + top + bottom;
    if (width > MAX_EXTENSION_SIDE || height > MAX_EXTENSION_SIDE) {
      throw new EngineError("invalid-input", `No side of the result may exceed ${MAX_EXTENSION_SIDE} px.`);
    }
    const canvas = new Uint8Array(width * height * 3);
    const mask = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < image.height; y++) {
      const row = (y + top) * width + left;
      canvas.set(image.data.subarray(y * image.width * 3, (y + 1) * image.width * 3), row * 3);
      mask.fill(0, row, row + image.width);
    }
    // Telea would only stretch the border outwards; extension always needs exemplar-based completion.
    const rgb = completeImage(canvas, width, height, mask);
    const png = await encodePng({ data: rgb, width, height, channels: 3 });
    return { kind: "image", png, width, height };
  },
};

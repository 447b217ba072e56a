import { EngineError } from "../errors";
import { fillMasked } from "../lib/fill";
import { decodeImage, decodeMask, encodePng } from "../lib/image";
import { countMasked } from "../lib/mask";
import type { Feature } from "./feature";

export const objectRemoval: Feature<"object-removal"> = {
  id: "object-removal",
  checkAvailability: async () => ({ available: true }),
  async run(input) {
    const image = await decodeImage(input.image, 3);
    const mask = await decodeMask(input.mask, image.width, image.height);
    const masked = countMasked(mask);
    if (masked === 0) {
      throw new EngineError("invalid-input", "The mask is empty: paint the object to remove in white.");
    }
    if (masked === mask.length) {
      throw new EngineError(
        "invalid-input",
        "The mask covers the whole image: nothing is left to fill from.",
      );
    }
    const { rgb } = await fillMasked(image.data, image.width, image.height, mask);
    const png = await encodePng({ ...image, data: rgb });
    return { kind: "image", png, width: image.width, height: image.height };
  },
};

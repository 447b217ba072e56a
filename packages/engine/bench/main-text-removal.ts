/**
 * The text removal of main before the membrane fill (issue 34's second round): the same detector and
 * letter mask as now, the letters filled by `fillMasked` (Telea for masks at most THIN_MASK_HALF_WIDTH
 * thick, exemplar-based completion otherwise). Kept for the benchmark only, so that the fill's quality
 * and CPU time are measured beside today's in the same run. Not used by the engine.
 */
import type { Feature } from "../src/features/feature";
import { detectText, letterMask, textRemoval } from "../src/features/text-removal";
import { fillMasked } from "../src/lib/fill";
import { decodeImage, encodePng } from "../src/lib/image";
import { countMasked } from "../src/lib/mask";
import { inpaintTelea } from "../src/lib/opencv";

export const mainTextRemoval: Feature<"text-removal"> = {
  id: "text-removal",
  checkAvailability: () => textRemoval.checkAvailability(),
  async run(input) {
    const image = await decodeImage(input.image, 3);
    const { lines, boxes } = await detectText(image);
    let rgb = image.data;
    if (boxes.length > 0) {
      if (input.fast_mode) {
        rgb = await inpaintTelea(image.data, image.width, image.height, lines);
      } else {
        const letters = letterMask(image, boxes);
        if (countMasked(letters) > 0) {
          rgb = (await fillMasked(image.data, image.width, image.height, letters)).rgb;
        }
      }
    }
    const png = await encodePng({ ...image, data: rgb });
    return { kind: "image", png, width: image.width, height: image.height };
  },
};

import { maskThickness } from "./mask";
import { inpaintTelea } from "./opencv";
import { completeImage } from "./patchmatch";

/** Masks no thicker than this (half-width in pixels) are thin enough for Telea to fill without smearing. */
export const THIN_MASK_HALF_WIDTH = 2;

export type FillMethod = "telea" | "patchmatch";

/**
 * Fills the masked pixels of an RGB image: Telea for thin masks (strokes, scratches, letters), where it is
 * fast and invisible, exemplar-based completion for anything larger, where Telea would smear.
 */
export async function fillMasked(
  rgb: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
  method?: FillMethod,
): Promise<{ rgb: Uint8Array; method: FillMethod }> {
  const chosen =
    method ?? (maskThickness(mask, width, height) <= THIN_MASK_HALF_WIDTH ? "telea" : "patchmatch");
  if (chosen === "telea") {
    return { rgb: await inpaintTelea(rgb, width, height, mask), method: chosen };
  }
  return { rgb: completeImage(rgb, width, height, mask), method: chosen };
}

import { MAX_EXTENSION_SIDE } from "@prism/contract";

/** The pixels added on each side of an image (Image extension). */
export interface ExtensionSides {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export type ExtensionSide = keyof ExtensionSides;

export const NO_EXTENSION: ExtensionSides = { top: 0, bottom: 0, left: 0, right: 0 };
/**
 * What "Show API Call" sends while no side is set yet: a call with every side 0 answers 400, so the
 * snippet shows a valid extension instead (the API reference's example: 256 px above and below).
 */
export const SNIPPET_EXTENSION: ExtensionSides = { top: 256, bottom: 256, left: 0, right: 0 };

const OPPOSITE: Record<ExtensionSide, ExtensionSide> = {
  top: "bottom",
  bottom: "top",
  left: "right",
  right: "left",
};

/** Top and bottom extend the height; left and right the width. */
function axisSize(side: ExtensionSide, image: { width: number; height: number }): number {
  return side === "top" || side === "bottom" ? image.height : image.width;
}

/**
 * A slider's maximum: 4096 minus the image's dimension on that axis, never below 0.
 */
export function maxExtension(side: ExtensionSide, image: { width: number; height: number }): number {
  return Math.max(0, MAX_EXTENSION_SIDE - Math.round(axisSize(side, image)));
}

function clamp(value: number, max: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(max, Math.max(0, Math.round(value)));
}

/**
 * Sets one side, clamped to its slider range, and reduces the opposite side so that both sides plus
 * the image's dimension on that axis stay within 4096.
 */
export function setExtension(
  sides: ExtensionSides,
  side: ExtensionSide,
  value: number,
  image: { width: number; height: number },
): ExtensionSides {
  const budget = maxExtension(side, image);
  const next = clamp(value, budget);
  const opposite = OPPOSITE[side];
  return { ...sides, [side]: next, [opposite]: Math.min(clamp(sides[opposite], budget), budget - next) };
}

/** Brings every side within the bounds of a (new) image, keeping the values that still fit. */
export function fitExtension(
  sides: ExtensionSides,
  image: { width: number; height: number },
): ExtensionSides {
  const vertical = setExtension(sides, "top", sides.top, image);
  return setExtension(vertical, "left", vertical.left, image);
}

/** Whether anything would be extended: Extend Image needs at least one non-zero side. */
export function hasExtension(sides: ExtensionSides): boolean {
  return sides.top + sides.bottom + sides.left + sides.right > 0;
}

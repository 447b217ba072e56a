/**
 * Image quality measures shared by the engine's tests and its benchmark. They compare a filled image with
 * the original it was made from (a composite whose truth is known), over a region of interest.
 */

/** PSNR in dB over the pixels `region` selects (all by default); infinite for identical images. */
export function psnr(
  a: Uint8Array,
  b: Uint8Array,
  region?: (pixel: number) => boolean,
  channels = 3,
): number {
  let squared = 0;
  let count = 0;
  for (let p = 0; p < a.length / channels; p++) {
    if (region && !region(p)) continue;
    for (let c = 0; c < channels; c++) {
      squared += (a[p * channels + c]! - b[p * channels + c]!) ** 2;
      count++;
    }
  }
  return count === 0 || squared === 0
    ? Number.POSITIVE_INFINITY
    : 10 * Math.log10((255 * 255) / (squared / count));
}

function luma(rgb: Uint8Array): Float64Array {
  const out = new Float64Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) {
    out[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
  }
  return out;
}

/** Mean absolute 4-neighbour Laplacian of the luma over the masked pixels: how much fine detail they hold. */
export function meanAbsoluteLaplacian(
  rgb: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
): number {
  const l = luma(rgb);
  let sum = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      sum += Math.abs(4 * l[i]! - l[i - 1]! - l[i + 1]! - l[i - width]! - l[i + width]!);
      count++;
    }
  }
  return count ? sum / count : 0;
}

/**
 * The detail a fill keeps: the mean absolute Laplacian inside the hole relative to the original's there.
 * A blur scores near 0, a fill as busy as the original near 1; PSNR alone rewards the blur.
 */
export function detailRatio(
  result: Uint8Array,
  original: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
): number {
  return (
    meanAbsoluteLaplacian(result, width, height, mask) / meanAbsoluteLaplacian(original, width, height, mask)
  );
}

/** The baseline every fill must beat: the hole painted with the mean colour of the pixels around it. */
export function flatFill(rgb: Uint8Array, width: number, height: number, mask: Uint8Array): Uint8Array {
  const sums = [0, 0, 0];
  let count = 0;
  forEachBorderPair(width, height, mask, (_inside, outside) => {
    for (let c = 0; c < 3; c++) sums[c]! += rgb[outside * 3 + c]!;
    count++;
  });
  const out = new Uint8Array(rgb);
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(sums[c]! / Math.max(1, count));
  }
  return out;
}

/**
 * How strongly the hole's outline shows: the mean absolute luma step between each hole pixel and its
 * outside neighbour, relative to the same steps in the original. About 1 when the fill joins its
 * surroundings as the original did; a pasted-looking patch or a blurred one with a hard rim scores above.
 */
export function seamRatio(
  result: Uint8Array,
  original: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
): number {
  const a = luma(result);
  const b = luma(original);
  let filled = 0;
  let truth = 0;
  forEachBorderPair(width, height, mask, (inside, outside) => {
    filled += Math.abs(a[inside]! - a[outside]!);
    truth += Math.abs(b[inside]! - b[outside]!);
  });
  return filled / Math.max(1e-9, truth);
}

/** Calls `visit` for every masked pixel and 4-neighbour outside the mask. */
function forEachBorderPair(
  width: number,
  height: number,
  mask: Uint8Array,
  visit: (inside: number, outside: number) => void,
): void {
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      if (x > 0 && !mask[i - 1]) visit(i, i - 1);
      if (x < width - 1 && !mask[i + 1]) visit(i, i + 1);
      if (y > 0 && !mask[i - width]) visit(i, i - width);
      if (y < height - 1 && !mask[i + width]) visit(i, i + width);
    }
  }
}

/** A square hole of `size` pixels centred at (fx, fy) as fractions of the image: 255 inside. */
export function squareMask(width: number, height: number, size: number, fx: number, fy: number): Uint8Array {
  const left = Math.round(fx * width - size / 2);
  const top = Math.round(fy * height - size / 2);
  const mask = new Uint8Array(width * height);
  for (let y = Math.max(0, top); y < Math.min(height, top + size); y++) {
    mask.fill(255, y * width + Math.max(0, left), y * width + Math.min(width, left + size));
  }
  return mask;
}

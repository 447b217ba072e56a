/**
 * The half-width of the thickest part of a mask, in pixels: the largest chessboard distance from a masked
 * pixel to the nearest unmasked one (two-pass distance transform). With `borderIsKnown` false, a masked
 * pixel on the image border is not next to anything known (as when extending an image).
 */
export function maskThickness(mask: Uint8Array, width: number, height: number, borderIsKnown = true): number {
  const distance = new Int32Array(width * height);
  const far = width + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) {
        distance[i] = 0;
        continue;
      }
      let d = far;
      if (x > 0) d = Math.min(d, distance[i - 1]! + 1);
      if (y > 0) {
        d = Math.min(d, distance[i - width]! + 1);
        if (x > 0) d = Math.min(d, distance[i - width - 1]! + 1);
        if (x < width - 1) d = Math.min(d, distance[i - width + 1]! + 1);
      }
      const onBorder = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      distance[i] = borderIsKnown && onBorder ? Math.min(d, 1) : d;
    }
  }
  let thickest = 0;
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!mask[i]) {
        continue;
      }
      let d = distance[i]!;
      if (x < width - 1) d = Math.min(d, distance[i + 1]! + 1);
      if (y < height - 1) {
        d = Math.min(d, distance[i + width]! + 1);
        if (x < width - 1) d = Math.min(d, distance[i + width + 1]! + 1);
        if (x > 0) d = Math.min(d, distance[i + width - 1]! + 1);
      }
      distance[i] = d;
      thickest = Math.max(thickest, d);
    }
  }
  return thickest;
}

/** Grows a mask by `radius` pixels (square structuring element, separable). */
export function dilateMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const horizontal = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let on = 0;
      for (let dx = -radius; dx <= radius && !on; dx++) {
        const nx = x + dx;
        if (nx >= 0 && nx < width && mask[y * width + nx]) on = 255;
      }
      horizontal[y * width + x] = on;
    }
  }
  const result = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let on = 0;
      for (let dy = -radius; dy <= radius && !on; dy++) {
        const ny = y + dy;
        if (ny >= 0 && ny < height && horizontal[ny * width + x]) on = 255;
      }
      result[y * width + x] = on;
    }
  }
  return result;
}

export function countMasked(mask: Uint8Array): number {
  let count = 0;
  for (const value of mask) {
    if (value) count++;
  }
  return count;
}

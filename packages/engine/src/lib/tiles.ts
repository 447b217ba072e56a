/** A rectangle of the input image processed on its own. */
export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Splits an image into tiles of at most `size` pixels a side that overlap their neighbours by `overlap`
 * pixels, so every seam can be cross-faded.
 */
export function planTiles(width: number, height: number, size: number, overlap: number): Tile[] {
  const starts = (length: number): number[] => {
    if (length <= size) {
      return [0];
    }
    const count = Math.ceil((length - overlap) / (size - overlap));
    const step = (length - size) / (count - 1);
    return Array.from({ length: count }, (_, i) => Math.round(i * step));
  };
  const tiles: Tile[] = [];
  for (const y of starts(height)) {
    for (const x of starts(width)) {
      tiles.push({ x, y, width: Math.min(size, width - x), height: Math.min(size, height - y) });
    }
  }
  return tiles;
}

export function cropRgb(rgb: Uint8Array, width: number, tile: Tile): Uint8Array {
  const out = new Uint8Array(tile.width * tile.height * 3);
  for (let row = 0; row < tile.height; row++) {
    const from = ((tile.y + row) * width + tile.x) * 3;
    out.set(rgb.subarray(from, from + tile.width * 3), row * tile.width * 3);
  }
  return out;
}

/**
 * Joins scaled tiles with linear cross-fades across each overlap (a tile's weight falls to zero at an
 * edge it shares with a neighbour, and stays one at the image border), so no seam shows.
 */
export function blendTiles(
  tiles: readonly { tile: Tile; rgb: Uint8Array }[],
  width: number,
  height: number,
  scale: number,
  overlap: number,
): Uint8Array {
  const outWidth = width * scale;
  const outHeight = height * scale;
  const sum = new Float32Array(outWidth * outHeight * 3);
  const weights = new Float32Array(outWidth * outHeight);
  const ramp = overlap * scale;
  for (const { tile, rgb } of tiles) {
    const tw = tile.width * scale;
    const th = tile.height * scale;
    const ox = tile.x * scale;
    const oy = tile.y * scale;
    const edgeWeight = (position: number, length: number, atStart: boolean, atEnd: boolean): number => {
      let weight = 1;
      if (!atStart && ramp > 0) weight = Math.min(weight, (position + 0.5) / ramp);
      if (!atEnd && ramp > 0) weight = Math.min(weight, (length - position - 0.5) / ramp);
      return Math.max(weight, 1e-3);
    };
    const columnWeights = Float32Array.from({ length: tw }, (_, x) =>
      edgeWeight(x, tw, tile.x === 0, tile.x + tile.width === width),
    );
    for (let y = 0; y < th; y++) {
      const rowWeight = edgeWeight(y, th, tile.y === 0, tile.y + tile.height === height);
      for (let x = 0; x < tw; x++) {
        const w = rowWeight * columnWeights[x]!;
        const o = (oy + y) * outWidth + ox + x;
        const i = (y * tw + x) * 3;
        weights[o]! += w;
        sum[o * 3]! += w * rgb[i]!;
        sum[o * 3 + 1]! += w * rgb[i + 1]!;
        sum[o * 3 + 2]! += w * rgb[i + 2]!;
      }
    }
  }
  const out = new Uint8Array(outWidth * outHeight * 3);
  for (let o = 0; o < weights.length; o++) {
    const w = weights[o]! || 1;
    out[o * 3] = Math.round(sum[o * 3]! / w);
    out[o * 3 + 1] = Math.round(sum[o * 3 + 1]! / w);
    out[o * 3 + 2] = Math.round(sum[o * 3 + 2]! / w);
  }
  return out;
}

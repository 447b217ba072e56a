/**
 * Gradient-domain (Poisson) blending, Pérez et al. 2003: inside the mask the result keeps the gradients
 * of `source` while matching `target` on the mask's border. Written as source + h, where h is the
 * membrane that interpolates the border difference (target - source) smoothly (Laplace's equation),
 * solved by successive over-relaxation from a diffusion-filled first guess. RGB, 3 bytes per pixel;
 * pixels outside the mask come from `target`.
 */
export function poissonBlend(
  source: Uint8Array,
  target: Uint8Array,
  mask: Uint8Array,
  width: number,
  height: number,
  options: { iterations?: number; omega?: number } = {},
): Uint8Array {
  const iterations = options.iterations ?? 400;
  const omega = options.omega ?? 1.9;
  const output = new Uint8Array(target);
  const inside: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      if (mask[y * width + x]) inside.push(y * width + x);
    }
  }
  if (inside.length === 0) {
    return output;
  }
  const isInside = new Uint8Array(width * height);
  for (const i of inside) isInside[i] = 1;

  for (let c = 0; c < 3; c++) {
    // h is known (target - source) outside the mask and unknown inside.
    const h = new Float32Array(width * height);
    for (let i = 0; i < h.length; i++) {
      h[i] = target[i * 3 + c]! - source[i * 3 + c]!;
    }
    let borderSum = 0;
    let borderCount = 0;
    for (const i of inside) {
      for (const j of [i - 1, i + 1, i - width, i + width]) {
        if (!isInside[j]) {
          borderSum += h[j]!;
          borderCount++;
        }
      }
    }
    const start = borderCount ? borderSum / borderCount : 0;
    for (const i of inside) h[i] = start;
    for (let iteration = 0; iteration < iterations; iteration++) {
      let change = 0;
      for (const i of inside) {
        const average = (h[i - 1]! + h[i + 1]! + h[i - width]! + h[i + width]!) / 4;
        const next = h[i]! + omega * (average - h[i]!);
        change = Math.max(change, Math.abs(next - h[i]!));
        h[i] = next;
      }
      if (change < 0.05) break;
    }
    for (const i of inside) {
      const value = source[i * 3 + c]! + h[i]!;
      output[i * 3 + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
  return output;
}

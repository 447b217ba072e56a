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

/**
 * Fills the masked pixels of an RGB image with the smoothest surface that meets the known pixels around
 * them (Laplace's equation, the membrane): each filled pixel is the mean of its four neighbours, those
 * outside the image left out. It invents no detail, so where the hidden content cannot be guessed from
 * around the hole (letters over clutter) it errs less on average than a copied patch that is sharp but
 * in the wrong place. Started from an onion-peel diffusion (each pixel the mean of its already known
 * neighbours, from the hole's edge inwards), then successive over-relaxation.
 */
export function fillMembrane(
  rgb: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
  options: { iterations?: number; omega?: number } = {},
): Uint8Array {
  const iterations = options.iterations ?? 500;
  const omega = options.omega ?? 1.9;
  const output = new Uint8Array(rgb);
  const size = width * height;
  const known = new Uint8Array(size);
  let unknown = 0;
  for (let i = 0; i < size; i++) {
    if (mask[i]) unknown++;
    else known[i] = 1;
  }
  if (unknown === 0) return output;
  if (unknown === size) throw new RangeError("The whole image is masked: there is nothing to fill from.");
  const values = new Float32Array(size * 3);
  for (let i = 0; i < size * 3; i++) values[i] = rgb[i]!;

  // Onion peel: the hole's pixels in order of their distance from what is known, each set to the mean of
  // its known (or already set) 8-neighbours.
  const order: number[] = [];
  let front: number[] = [];
  const queued = new Uint8Array(size);
  const neighbours8 = (i: number, visit: (j: number) => void) => {
    const x = i % width;
    const y = (i - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      const ny = y + dy;
      if (ny < 0 || ny >= height) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
        visit(ny * width + nx);
      }
    }
  };
  for (let i = 0; i < size; i++) {
    if (known[i]) continue;
    let edge = false;
    neighbours8(i, (j) => {
      if (known[j]) edge = true;
    });
    if (edge) {
      front.push(i);
      queued[i] = 1;
    }
  }
  while (front.length > 0) {
    const next: number[] = [];
    for (const i of front) {
      let count = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      neighbours8(i, (j) => {
        if (!known[j]) return;
        r += values[j * 3]!;
        g += values[j * 3 + 1]!;
        b += values[j * 3 + 2]!;
        count++;
      });
      values[i * 3] = r / count;
      values[i * 3 + 1] = g / count;
      values[i * 3 + 2] = b / count;
      order.push(i);
    }
    for (const i of front) known[i] = 1;
    for (const i of front) {
      neighbours8(i, (j) => {
        if (known[j] || queued[j]) return;
        queued[j] = 1;
        next.push(j);
      });
    }
    front = next;
  }

  // Successive over-relaxation of Laplace's equation over the hole (4-neighbours inside the image).
  const inside = Int32Array.from(order);
  for (let iteration = 0; iteration < iterations; iteration++) {
    let change = 0;
    for (const i of inside) {
      const x = i % width;
      const y = (i - x) / width;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let count = 0;
        if (x > 0) {
          sum += values[(i - 1) * 3 + c]!;
          count++;
        }
        if (x < width - 1) {
          sum += values[(i + 1) * 3 + c]!;
          count++;
        }
        if (y > 0) {
          sum += values[(i - width) * 3 + c]!;
          count++;
        }
        if (y < height - 1) {
          sum += values[(i + width) * 3 + c]!;
          count++;
        }
        const current = values[i * 3 + c]!;
        const next = current + omega * (sum / count - current);
        change = Math.max(change, Math.abs(next - current));
        values[i * 3 + c] = next;
      }
    }
    if (change < 0.05) break;
  }
  for (const i of inside) {
    for (let c = 0; c < 3; c++) {
      const value = values[i * 3 + c]!;
      output[i * 3 + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
  return output;
}

/**
 * Gradient-domain (Poisson) blending, Pérez et al. 2003: inside the mask the result keeps the gradients
 * of `source` while matching `target` on the mask's border. Written as source + h, where h is the
 * membrane that interpolates the border difference (target - source) smoothly (Laplace's equation),
 * solved by {@link createPoissonSolver} from the border's mean difference. RGB, 3 bytes per pixel;
 * pixels outside the mask (and the image's outermost pixels) come from `target`.
 */
export function poissonBlend(
  source: Uint8Array,
  target: Uint8Array,
  mask: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  const output = new Uint8Array(target);
  const inside: number[] = [];
  const slotOf = new Int32Array(width * height).fill(-1);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      if (mask[y * width + x]) {
        slotOf[y * width + x] = inside.length;
        inside.push(y * width + x);
      }
    }
  }
  if (inside.length === 0) {
    return output;
  }
  const solver = createPoissonSolver(width, height, inside, slotOf);
  const n = inside.length;
  const rhs = new Float64Array(n);
  const h = new Float64Array(n);
  for (let c = 0; c < 3; c++) {
    // h is known (target - source) outside the mask and unknown inside.
    const difference = (i: number) => target[i * 3 + c]! - source[i * 3 + c]!;
    let borderSum = 0;
    let borderCount = 0;
    for (let k = 0; k < n; k++) {
      let b = 0;
      solver.forEachKnownNeighbour(k, (j) => {
        b += difference(j);
      });
      rhs[k] = b;
      borderSum += b;
      borderCount += solver.knownNeighbours(k);
    }
    h.fill(borderCount ? borderSum / borderCount : 0);
    solver.solve(rhs, h);
    for (let k = 0; k < n; k++) {
      const i = inside[k]!;
      const value = source[i * 3 + c]! + h[k]!;
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
 * neighbours, from the hole's edge inwards), then solved by {@link createPoissonSolver}.
 */
export function fillMembrane(rgb: Uint8Array, width: number, height: number, mask: Uint8Array): Uint8Array {
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

  // Laplace's equation over the hole, from the onion peel's colours.
  const slotOf = new Int32Array(size).fill(-1);
  for (let k = 0; k < order.length; k++) slotOf[order[k]!] = k;
  const solver = createPoissonSolver(width, height, order, slotOf);
  const n = order.length;
  const rhs = new Float64Array(n);
  const solution = new Float64Array(n);
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < n; k++) {
      let b = 0;
      solver.forEachKnownNeighbour(k, (j) => {
        b += rgb[j * 3 + c]!;
      });
      rhs[k] = b;
      solution[k] = values[order[k]! * 3 + c]!;
    }
    solver.solve(rhs, solution);
    for (let k = 0; k < n; k++) {
      const value = solution[k]!;
      output[order[k]! * 3 + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
  return output;
}

/** A neighbour link of an unknown pixel: the neighbour is known, or outside the image. */
export const KNOWN_NEIGHBOUR = -1;
export const OUTSIDE_IMAGE = -2;
/** The offsets of a pixel's four neighbours, in the order of a solver's links: left, right, up, down. */
export function neighbourOffsets(width: number): readonly number[] {
  return [-1, 1, -width, width];
}

/**
 * The one Poisson solver of the engine (blending, membrane fill, the gradient-domain finish of image
 * completion). Over the unknown `pixels` of a width x height image (`slotOf` maps a pixel to its index in
 * `pixels`, -1 when known) it solves, for each unknown pixel k with N(k) its 4-neighbours inside the image,
 *
 *   |N(k)| x[k] - sum of x[j] over the unknown j in N(k) = rhs[k]
 *
 * where the caller puts in rhs the known neighbours' values plus the guidance (the sum of the wanted
 * differences to each neighbour; zero for Laplace's equation, the membrane). The image's edge is a free
 * (Neumann) boundary. Conjugate gradients from the first guess in `x`, which receives the solution.
 */
export function createPoissonSolver(
  width: number,
  height: number,
  pixels: ArrayLike<number>,
  slotOf: Int32Array,
) {
  const n = pixels.length;
  const offsets = neighbourOffsets(width);
  /** Per unknown pixel and direction: the neighbour's slot, KNOWN_NEIGHBOUR or OUTSIDE_IMAGE. */
  const links = new Int32Array(n * 4);
  const diagonal = new Float64Array(n);
  const known = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const p = pixels[k]!;
    const x = p % width;
    for (let d = 0; d < 4; d++) {
      const o = offsets[d]!;
      const q = p + o;
      const outside = (o === -1 && x === 0) || (o === 1 && x === width - 1) || q < 0 || q >= width * height;
      links[k * 4 + d] = outside ? OUTSIDE_IMAGE : slotOf[q]! >= 0 ? slotOf[q]! : KNOWN_NEIGHBOUR;
      if (!outside) diagonal[k]!++;
      if (links[k * 4 + d] === KNOWN_NEIGHBOUR) known[k]!++;
    }
  }
  const multiply = (v: Float64Array, out: Float64Array) => {
    for (let k = 0; k < n; k++) {
      let sum = diagonal[k]! * v[k]!;
      for (let d = 0; d < 4; d++) {
        const j = links[k * 4 + d]!;
        if (j >= 0) sum -= v[j]!;
      }
      out[k] = sum;
    }
  };
  const residual = new Float64Array(n);
  const direction = new Float64Array(n);
  const product = new Float64Array(n);
  return {
    links,
    /** How many of unknown pixel k's neighbours are known. */
    knownNeighbours: (k: number): number => known[k]!,
    /** Calls `visit` with the pixel index of each known neighbour of unknown pixel k. */
    forEachKnownNeighbour(k: number, visit: (pixel: number) => void): void {
      for (let d = 0; d < 4; d++) {
        if (links[k * 4 + d] === KNOWN_NEIGHBOUR) visit(pixels[k]! + offsets[d]!);
      }
    },
    solve(rhs: Float64Array, x: Float64Array): void {
      multiply(x, product);
      let rr = 0;
      for (let k = 0; k < n; k++) {
        residual[k] = rhs[k]! - product[k]!;
        direction[k] = residual[k]!;
        rr += residual[k]! * residual[k]!;
      }
      const maxIterations = Math.max(50, 4 * Math.ceil(Math.sqrt(n)));
      for (let iteration = 0; iteration < maxIterations && rr > 1e-3 * n; iteration++) {
        multiply(direction, product);
        let curvature = 0;
        for (let k = 0; k < n; k++) curvature += direction[k]! * product[k]!;
        const alpha = rr / curvature;
        let next = 0;
        for (let k = 0; k < n; k++) {
          x[k]! += alpha * direction[k]!;
          residual[k]! -= alpha * product[k]!;
          next += residual[k]! * residual[k]!;
        }
        const beta = next / rr;
        rr = next;
        for (let k = 0; k < n; k++) direction[k] = residual[k]! + beta * direction[k]!;
      }
    },
  };
}

/**
 * Exemplar-based image completion: PatchMatch nearest-neighbour fields (Barnes et al. 2009) inside the
 * coarse-to-fine expectation-maximisation of Wexler et al. 2007, with the refinements of Newson et al.
 * ("Non-local patch-based image inpainting", IPOL 2017) that keep texture sharp. Every unknown pixel ends
 * up copied from a real patch of the known part of the image. Pure TypeScript on typed arrays.
 *
 * Why the plain Wexler scheme blurs, and what is done about each cause:
 *
 * - Its votes average every patch that covers a pixel. Neighbouring patches are copied from slightly
 *   different places, so the average of their slightly misaligned copies is a blur, and a blurred hole
 *   then matches smooth patches best, so the blur feeds itself. The finest level here is rebuilt from
 *   the single best patch covering each pixel, and the pixels are then solved in the gradient domain
 *   (each keeps its source's differences to its neighbours, the border matches the known image), which
 *   hides the seams between copies without averaging their detail away.
 * - A coarse level cannot tell grass from flat green once both are averaged to one colour. Patches carry
 *   two texture features beside colour (the local mean of |dI/dx| and |dI/dy| at full resolution), so a
 *   coarse level still prefers textured sources for textured surroundings.
 * - Starting a finer level from the coarse pixels blown up makes every patch there blurry. A finer level
 *   first rebuilds its hole from its own pixels through the upsampled nearest-neighbour field.
 * - A coarsest level whose hole is still deep starts from a diffused blur; the pyramid now goes down
 *   until the hole there is only a few pixels deep (while a thin mask, such as letters, stays at full
 *   resolution, where its patches already reach across it, and a hole up to about 24 px wide stops at
 *   half resolution, where they nearly do).
 */

import { maskThickness } from "./mask";
import { createPoissonSolver, KNOWN_NEIGHBOUR, neighbourOffsets, OUTSIDE_IMAGE } from "./poisson";

const COLOURS = 3;
/** Colour, then the two texture features. */
const CHANNELS = COLOURS + 2;

export interface CompletionOptions {
  /** Patches are (2r+1) x (2r+1). */
  patchRadius?: number;
  /** Seed of the random search, so results are reproducible. */
  seed?: number;
  /**
   * Weight of the texture features against colour in the patch distance; 0 compares colour only. The
   * features are mean absolute luma differences between neighbours (0-255 scale).
   */
  textureWeight?: number;
  /** The coarsest level's shorter side is kept at least this long, so it still has sources to copy. */
  minLevelSide?: number;
  /** Coarser levels are added while the hole at the coarsest level so far is deeper than this. */
  coarsestHoleDepth?: number;
  /** A hole no deeper than this (pixels from the nearest known one) is solved at full resolution only. */
  singleLevelDepth?: number;
  /**
   * A hole no deeper than this gets one coarser level at most: at half resolution its patches already
   * see across it, and a third level (a quarter of the resolution) made 24 px holes in photos both
   * slower and 1 dB worse.
   */
  twoLevelDepth?: number;
  /**
   * How the finest level is rebuilt: "gradient" takes each pixel from the best patch covering it and
   * solves the colours in the gradient domain; "mean" keeps the similarity-weighted vote.
   */
  finish?: "gradient" | "mean";
  /**
   * Rebuild a finer level's hole through the upsampled field before searching, and re-measure every
   * match after each vote (the previous version compared new candidates with the costs from before).
   */
  refine?: boolean;
  /**
   * EM iterations on a coarse level, given its distance from the coarsest level (0) and from the finest
   * (its number of halvings).
   */
  coarseIterations?: (fromCoarsest: number, halvings: number) => number;
  /** EM iterations on the finest level when it starts from a coarser level's field (4 when it is alone). */
  finestIterations?: number;
}

/** The settings the engine uses, measured on the benchmark's textures and photos. */
const DEFAULTS: Required<Omit<CompletionOptions, "seed">> = {
  patchRadius: 3,
  textureWeight: 4,
  minLevelSide: 64,
  coarsestHoleDepth: 3,
  twoLevelDepth: 12,
  singleLevelDepth: 4,
  finish: "gradient",
  refine: true,
  // Re-measured costs converge in fewer iterations than the previous version's 16, 13, 10...; a level
  // only halved from the finest gets no more than 4, since it costs nearly as much as the finest.
  coarseIterations: (fromCoarsest, halvings) =>
    Math.min(Math.max(4, 10 - 2 * fromCoarsest), 4 << (halvings - 1)),
  // Started from the upsampled field and rebuilt from its own pixels, the finest level has converged
  // after 3: a fourth cost 13% of the time of a 24 px hole and changed no measure by more than 0.1.
  finestIterations: 3,
};

/**
 * The previous version of this completion (colour-only patches, weighted votes everywhere, a shallow
 * pyramid), kept so the benchmark can print old and new fills side by side; it reproduces that
 * version's output exactly.
 */
export const LEGACY_COMPLETION: CompletionOptions = {
  textureWeight: 0,
  minLevelSide: 24,
  coarsestHoleDepth: 15,
  singleLevelDepth: 0,
  twoLevelDepth: 0,
  finish: "mean",
  refine: false,
  coarseIterations: (fromCoarsest) => Math.max(5, 16 - 3 * fromCoarsest),
  finestIterations: 4,
};

interface Level {
  width: number;
  height: number;
  /** CHANNELS floats per pixel: RGB 0-255, then the weighted texture features. */
  data: Float32Array;
  /** 1 where the pixel is unknown. */
  hole: Uint8Array;
}

interface Settings {
  r: number;
  random: () => number;
  /** Whether patch distances include the texture features. */
  features: boolean;
  refine: boolean;
}

/**
 * Fills the pixels where `mask` is non-zero in an RGB image and returns a new RGB image; pixels outside
 * the mask are returned unchanged.
 */
export function completeImage(
  rgb: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
  options: CompletionOptions = {},
): Uint8Array {
  const settings = { ...DEFAULTS, ...options };
  const r = settings.patchRadius;
  const minSide = Math.max(settings.minLevelSide, 4 * r + 2);

  const hole = new Uint8Array(width * height);
  let holeCount = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      hole[i] = 1;
      holeCount++;
    }
  }
  const output = new Uint8Array(rgb);
  if (holeCount === 0) {
    return output;
  }
  if (holeCount === width * height) {
    throw new RangeError("The whole image is masked: there is nothing to copy from.");
  }

  const depth = maskThickness(mask, width, height, false);
  let levels = 1;
  if (depth > settings.singleLevelDepth) {
    for (let w = width >> 1, h = height >> 1; Math.min(w, h) >= minSide; w >>= 1, h >>= 1) {
      if (depth >> (levels - 1) <= settings.coarsestHoleDepth) {
        break;
      }
      if (levels === 2 && depth <= settings.twoLevelDepth) {
        break;
      }
      levels++;
    }
  }

  const features = settings.textureWeight > 0;
  const finest: Level = { width, height, data: new Float32Array(width * height * CHANNELS), hole };
  for (let i = 0; i < hole.length; i++) {
    for (let c = 0; c < COLOURS; c++) {
      finest.data[i * CHANNELS + c] = rgb[i * 3 + c]!;
    }
  }
  if (features) {
    addTextureFeatures(finest, settings.textureWeight, 1 << (levels - 1));
  }
  const pyramid: Level[] = [finest];
  while (pyramid.length < levels) {
    const next = downsample(pyramid[pyramid.length - 1]!);
    if (validSources(next, r).list.length === 0) {
      break;
    }
    pyramid.push(next);
  }

  const run: Settings = { r, random: createRandom(settings.seed ?? 1), features, refine: settings.refine };
  let nnf: Int32Array | undefined;
  for (let index = pyramid.length - 1; index >= 0; index--) {
    const level = pyramid[index]!;
    const sources = validSources(level, r);
    if (nnf) {
      const coarse = pyramid[index + 1]!;
      upsampleFill(coarse, level);
      nnf = upsampleNnf(nnf, coarse, level);
    } else {
      fillByDiffusion(level);
    }
    const fromCoarsest = pyramid.length - 1 - index;
    const iterations =
      index === 0
        ? pyramid.length > 1
          ? settings.finestIterations
          : 4
        : settings.coarseIterations(fromCoarsest, index);
    const finish = index === 0 ? settings.finish : "mean";
    nnf = solveLevel(level, sources, run, iterations, nnf, finish);
  }

  for (let i = 0; i < hole.length; i++) {
    if (hole[i]) {
      for (let c = 0; c < COLOURS; c++) {
        output[i * COLOURS + c] = clampByte(finest.data[i * CHANNELS + c]!);
      }
    }
  }
  return output;
}

function clampByte(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}

/** xorshift32: fast, seedable, good enough for random search. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

/**
 * Writes the texture features of the finest level: the mean absolute horizontal and vertical luma
 * differences over a `window`-wide box (the footprint of one coarsest-level pixel), counting only
 * differences between two known pixels, times `weight`. Unknown pixels keep zeros; they are
 * reconstructed with the colour.
 */
function addTextureFeatures(level: Level, weight: number, window: number): void {
  const { width, height, data, hole } = level;
  const size = width * height;
  const luma = new Float32Array(size);
  for (let i = 0, q = 0; i < size; i++, q += CHANNELS) {
    luma[i] = 0.299 * data[q]! + 0.587 * data[q + 1]! + 0.114 * data[q + 2]!;
  }
  const sums = new Float32Array(size);
  const counts = new Float32Array(size);
  for (let channel = COLOURS; channel < CHANNELS; channel++) {
    const horizontal = channel === COLOURS;
    const step = horizontal ? 1 : width;
    sums.fill(0);
    counts.fill(0);
    const rows = horizontal ? height : height - 1;
    const columns = horizontal ? width - 1 : width;
    for (let y = 0; y < rows; y++) {
      for (let i = y * width, end = i + columns; i < end; i++) {
        if (hole[i] === 0 && hole[i + step] === 0) {
          const d = luma[i + step]! - luma[i]!;
          sums[i] = d < 0 ? -d : d;
          counts[i] = 1;
        }
      }
    }
    boxFilter(sums, width, height, window);
    boxFilter(counts, width, height, window);
    for (let i = 0, q = channel; i < size; i++, q += CHANNELS) {
      if (hole[i] === 0 && counts[i]! > 0) {
        data[q] = (weight * sums[i]!) / counts[i]!;
      }
    }
  }
}

/**
 * Sums over a `window`-wide box around each pixel (clipped at the image's edges), in place: running sums
 * along each row, then down each column, so the image is read twice and nothing image-sized is allocated.
 */
function boxFilter(values: Float32Array, width: number, height: number, window: number): void {
  if (window <= 1) {
    return;
  }
  const before = window >> 1;
  const after = window - before;
  const line = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) line[x] = values[row + x]!;
    let sum = 0;
    for (let x = 0; x < Math.min(width, after); x++) sum += line[x]!;
    for (let x = 0; x < width; x++) {
      values[row + x] = sum;
      if (x + after < width) sum += line[x + after]!;
      if (x - before >= 0) sum -= line[x - before]!;
    }
  }
  // Column sums, a whole row at a time: `column` holds each column's sum over the current window.
  const column = new Float64Array(width);
  const rows = new Float64Array(width * Math.min(height, window + 1));
  for (let y = 0; y < Math.min(height, after); y++) {
    for (let x = 0; x < width; x++) column[x]! += values[y * width + x]!;
  }
  // The rows still needed after they are overwritten: a ring buffer of the last `window` + 1 rows.
  const ring = Math.min(height, window + 1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const slot = (y % ring) * width;
    for (let x = 0; x < width; x++) rows[slot + x] = values[row + x]!;
    for (let x = 0; x < width; x++) values[row + x] = column[x]!;
    const enter = y + after;
    if (enter < height) {
      for (let x = 0; x < width; x++) column[x]! += values[enter * width + x]!;
    }
    const leave = y - before;
    if (leave >= 0) {
      const leaveSlot = (leave % ring) * width;
      for (let x = 0; x < width; x++) column[x]! -= rows[leaveSlot + x]!;
    }
  }
}

/** Halves a level; a coarse pixel is unknown if any of its children is, so coarse known pixels are real. */
function downsample(level: Level): Level {
  const width = level.width >> 1;
  const height = level.height >> 1;
  const data = new Float32Array(width * height * CHANNELS);
  const hole = new Uint8Array(width * height);
  const sums = new Float64Array(CHANNELS);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * width + x;
      let known = 0;
      let anyHole = 0;
      sums.fill(0);
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const i = (2 * y + dy) * level.width + 2 * x + dx;
          if (level.hole[i]) {
            anyHole = 1;
          } else {
            known++;
            for (let c = 0; c < CHANNELS; c++) {
              sums[c]! += level.data[i * CHANNELS + c]!;
            }
          }
        }
      }
      hole[o] = anyHole;
      for (let c = 0; c < CHANNELS; c++) {
        data[o * CHANNELS + c] = known ? sums[c]! / known : 0;
      }
    }
  }
  return { width, height, data, hole };
}

interface Sources {
  /** 1 at the centre of every patch that lies inside the image and contains no unknown pixel. */
  valid: Uint8Array;
  list: Int32Array;
}

function validSources(level: Level, r: number): Sources {
  const { width, height } = level;
  const integral = holeIntegral(level);
  const valid = new Uint8Array(width * height);
  let count = 0;
  for (let y = r; y < height - r; y++) {
    for (let x = r; x < width - r; x++) {
      if (boxSum(integral, width + 1, x - r, y - r, x + r + 1, y + r + 1) === 0) {
        valid[y * width + x] = 1;
        count++;
      }
    }
  }
  const list = new Int32Array(count);
  for (let i = 0, k = 0; k < count; i++) {
    if (valid[i]) {
      list[k++] = i;
    }
  }
  return { valid, list };
}

/** Integral image of the hole, to test in O(1) whether a patch touches it. */
function holeIntegral(level: Level): Int32Array {
  const { width, height, hole } = level;
  const integral = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += hole[y * width + x]!;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  return integral;
}

function boxSum(
  integral: Int32Array,
  stride: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  return (
    integral[y1 * stride + x1]! -
    integral[y0 * stride + x1]! -
    integral[y1 * stride + x0]! +
    integral[y0 * stride + x0]!
  );
}

/**
 * A first guess for the coarsest level, whose hole is only a few pixels deep: unknown pixels take the
 * mean of known neighbours, ring by ring.
 */
function fillByDiffusion(level: Level): void {
  const { width, height, data } = level;
  const known = new Uint8Array(width * height);
  for (let i = 0; i < known.length; i++) {
    known[i] = level.hole[i] ? 0 : 1;
  }
  let frontier: number[] = [];
  for (let i = 0; i < known.length; i++) {
    if (!known[i] && hasKnownNeighbour(known, width, height, i)) {
      frontier.push(i);
    }
  }
  while (frontier.length > 0) {
    const values = new Float32Array(frontier.length * CHANNELS);
    frontier.forEach((i, n) => {
      const x = i % width;
      const y = (i - x) / width;
      let count = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height || !known[ny * width + nx]) {
            continue;
          }
          count++;
          for (let c = 0; c < CHANNELS; c++) {
            values[n * CHANNELS + c]! += data[(ny * width + nx) * CHANNELS + c]!;
          }
        }
      }
      for (let c = 0; c < CHANNELS; c++) {
        values[n * CHANNELS + c]! /= Math.max(1, count);
      }
    });
    frontier.forEach((i, n) => {
      known[i] = 1;
      for (let c = 0; c < CHANNELS; c++) {
        data[i * CHANNELS + c] = values[n * CHANNELS + c]!;
      }
    });
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) {
            continue;
          }
          const j = ny * width + nx;
          if (!known[j]) {
            known[j] = 2;
            next.push(j);
          }
        }
      }
    }
    for (const j of next) {
      known[j] = 0;
    }
    frontier = next;
  }
}

function hasKnownNeighbour(known: Uint8Array, width: number, height: number, i: number): boolean {
  const x = i % width;
  const y = (i - x) / width;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < width && ny < height && known[ny * width + nx]) {
        return true;
      }
    }
  }
  return false;
}

/** Starts a finer level's unknown pixels from the coarser level's solution. */
function upsampleFill(coarse: Level, fine: Level): void {
  for (let y = 0; y < fine.height; y++) {
    const cy = Math.min(coarse.height - 1, y >> 1);
    for (let x = 0; x < fine.width; x++) {
      const i = y * fine.width + x;
      if (!fine.hole[i]) {
        continue;
      }
      const j = cy * coarse.width + Math.min(coarse.width - 1, x >> 1);
      for (let c = 0; c < CHANNELS; c++) {
        fine.data[i * CHANNELS + c] = coarse.data[j * CHANNELS + c]!;
      }
    }
  }
}

/** Doubles a nearest-neighbour field; entries that land on an invalid source are re-drawn later. */
function upsampleNnf(nnf: Int32Array, coarse: Level, fine: Level): Int32Array {
  const result = new Int32Array(fine.width * fine.height).fill(-1);
  for (let y = 0; y < fine.height; y++) {
    const cy = Math.min(coarse.height - 1, y >> 1);
    for (let x = 0; x < fine.width; x++) {
      const cx = Math.min(coarse.width - 1, x >> 1);
      const source = nnf[cy * coarse.width + cx]!;
      if (source < 0) {
        continue;
      }
      const sx = (source % coarse.width) * 2 + (x & 1);
      const sy = Math.floor(source / coarse.width) * 2 + (y & 1);
      if (sx < fine.width && sy < fine.height) {
        result[y * fine.width + x] = sy * fine.width + sx;
      }
    }
  }
  return result;
}

/**
 * Expectation-maximisation on one level: find each target patch's nearest known patch (PatchMatch), then
 * rebuild every unknown pixel from the patches that cover it.
 */
function solveLevel(
  level: Level,
  sources: Sources,
  run: Settings,
  emIterations: number,
  initial: Int32Array | undefined,
  finish: "gradient" | "mean",
): Int32Array {
  const { width, height, data } = level;
  const { r, random } = run;
  const { features } = run;
  const { valid, list } = sources;
  const integral = holeIntegral(level);
  const targetList: number[] = [];
  const isTarget = new Uint8Array(width * height);
  // Only patches near the hole can touch it: scan its bounding box grown by a patch radius.
  const bounds = holeBounds(level);
  for (let y = Math.max(0, bounds.y0 - r); y <= Math.min(height - 1, bounds.y1 + r); y++) {
    for (let x = Math.max(0, bounds.x0 - r); x <= Math.min(width - 1, bounds.x1 + r); x++) {
      const x0 = Math.max(0, x - r);
      const y0 = Math.max(0, y - r);
      const x1 = Math.min(width, x + r + 1);
      const y1 = Math.min(height, y + r + 1);
      if (boxSum(integral, width + 1, x0, y0, x1, y1) > 0) {
        targetList.push(y * width + x);
        isTarget[y * width + x] = 1;
      }
    }
  }
  const targets = Int32Array.from(targetList);

  const nnf = new Int32Array(width * height).fill(-1);
  const cost = new Float64Array(width * height);
  for (const t of targets) {
    let source = initial ? initial[t]! : -1;
    if (source < 0 || !valid[source]) {
      source = list[Math.floor(random() * list.length)]!;
    }
    nnf[t] = source;
  }
  const measure = () => {
    for (const t of targets) {
      cost[t] = patchDistance(data, width, height, r, t, nnf[t]!, Number.POSITIVE_INFINITY, features);
    }
  };
  measure();
  if (initial && run.refine) {
    // The hole still holds the coarse solution blown up: rebuild it from this level's own pixels.
    vote(level, r, targets, nnf, cost, false);
    measure();
  }

  const maxRadius = Math.max(width, height);
  const tryCandidate = (t: number, candidate: number): void => {
    if (candidate < 0 || !valid[candidate] || candidate === nnf[t]) {
      return;
    }
    const d = patchDistance(data, width, height, r, t, candidate, cost[t]!, features);
    if (d < cost[t]!) {
      cost[t] = d;
      nnf[t] = candidate;
    }
  };

  for (let em = 0; em < emIterations; em++) {
    const searchIterations = em === 0 ? 3 : 2;
    for (let pass = 0; pass < searchIterations; pass++) {
      const forward = pass % 2 === 0;
      const step = forward ? 1 : -1;
      for (let k = forward ? 0 : targets.length - 1; k >= 0 && k < targets.length; k += step) {
        const t = targets[k]!;
        const x = t % width;
        const y = (t - x) / width;
        // Propagation: a neighbour's match, shifted by one pixel, is often this patch's match too.
        const nx = x - step;
        if (nx >= 0 && nx < width && isTarget[t - step]) {
          const s = nnf[t - step]!;
          const sx = (s % width) + step;
          if (sx >= 0 && sx < width) {
            tryCandidate(t, s + step);
          }
        }
        const ny = y - step;
        if (ny >= 0 && ny < height && isTarget[t - step * width]) {
          const s = nnf[t - step * width]!;
          const sy = Math.floor(s / width) + step;
          if (sy >= 0 && sy < height) {
            tryCandidate(t, s + step * width);
          }
        }
        // Random search in shrinking windows around the current best.
        for (let radius = maxRadius; radius >= 1; radius >>= 1) {
          const best = nnf[t]!;
          const bx = best % width;
          const by = (best - bx) / width;
          const cx = Math.min(width - 1 - r, Math.max(r, bx + Math.floor((random() * 2 - 1) * radius)));
          const cy = Math.min(height - 1 - r, Math.max(r, by + Math.floor((random() * 2 - 1) * radius)));
          tryCandidate(t, cy * width + cx);
        }
      }
    }
    const last = em === emIterations - 1;
    if (last && finish === "gradient") {
      blendGradients(level, vote(level, r, targets, nnf, cost, true));
    } else {
      vote(level, r, targets, nnf, cost, false);
      if (run.refine && !last) {
        measure();
      }
    }
  }
  // Unknown pixels of a later level read the field through upsampling, which needs an entry everywhere.
  for (let i = 0; i < nnf.length; i++) {
    if (nnf[i]! < 0 && valid[i]) {
      nnf[i] = i;
    }
  }
  return nnf;
}

/** The smallest box (inclusive) holding every unknown pixel of a level. */
function holeBounds(level: Level): { x0: number; y0: number; x1: number; y1: number } {
  const { width, height, hole } = level;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (hole[row + x]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return { x0, y0, x1, y1 };
}

/** Mean squared difference per pixel, or infinity as soon as it must exceed `cutoff`. */
function patchDistance(
  data: Float32Array,
  width: number,
  height: number,
  r: number,
  target: number,
  source: number,
  cutoff: number,
  features: boolean,
): number {
  const tx = target % width;
  const ty = (target - tx) / width;
  const sx = source % width;
  const sy = (source - sx) / width;
  // Only the part of the target patch inside the image is compared.
  const y0 = Math.max(-r, -ty);
  const y1 = Math.min(r, height - 1 - ty);
  const x0 = Math.max(-r, -tx);
  const x1 = Math.min(r, width - 1 - tx);
  const count = (y1 - y0 + 1) * (x1 - x0 + 1);
  const limit = cutoff * count;
  let sum = 0;
  for (let dy = y0; dy <= y1; dy++) {
    let ti = ((ty + dy) * width + tx + x0) * CHANNELS;
    let si = ((sy + dy) * width + sx + x0) * CHANNELS;
    const end = ti + (x1 - x0 + 1) * CHANNELS;
    for (; ti < end; ti += CHANNELS, si += CHANNELS) {
      const d0 = data[ti]! - data[si]!;
      const d1 = data[ti + 1]! - data[si + 1]!;
      const d2 = data[ti + 2]! - data[si + 2]!;
      sum += d0 * d0 + d1 * d1 + d2 * d2;
      if (features) {
        const d3 = data[ti + 3]! - data[si + 3]!;
        const d4 = data[ti + 4]! - data[si + 4]!;
        sum += d3 * d3 + d4 * d4;
      }
    }
    if (sum > limit) {
      return Number.POSITIVE_INFINITY;
    }
  }
  return sum / count;
}

/** The unknown pixels of a level, and each pixel's position in that list. */
interface HoleSlots {
  pixels: Int32Array;
  /** -1 for known pixels. */
  index: Int32Array;
}

const slotCache = new WeakMap<Level, HoleSlots>();

function holeSlots(level: Level): HoleSlots {
  let slots = slotCache.get(level);
  if (!slots) {
    const index = new Int32Array(level.hole.length).fill(-1);
    const pixels: number[] = [];
    for (let i = 0; i < level.hole.length; i++) {
      if (level.hole[i]) {
        index[i] = pixels.length;
        pixels.push(i);
      }
    }
    slots = { pixels: Int32Array.from(pixels), index };
    slotCache.set(level, slots);
  }
  return slots;
}

/**
 * Rebuilds the unknown pixels from the patches covering them: the similarity-weighted mean of their
 * votes, or (`best`) the vote of the single closest patch, in which case it returns, per unknown pixel
 * (in `holeSlots` order), the source pixel it was copied from.
 */
function vote(
  level: Level,
  r: number,
  targets: Int32Array,
  nnf: Int32Array,
  cost: Float64Array,
  best: true,
): Int32Array;
function vote(
  level: Level,
  r: number,
  targets: Int32Array,
  nnf: Int32Array,
  cost: Float64Array,
  best: false,
): undefined;
function vote(
  level: Level,
  r: number,
  targets: Int32Array,
  nnf: Int32Array,
  cost: Float64Array,
  best: boolean,
): Int32Array | undefined {
  const { width, height, data, hole } = level;
  const slots = holeSlots(level);
  const count = slots.pixels.length;
  const accumulated = new Float64Array(count * CHANNELS);
  const weights = new Float64Array(count);
  const bestCost = new Float64Array(best ? count : 0).fill(Number.POSITIVE_INFINITY);
  const sourceOf = new Int32Array(best ? count : 0).fill(-1);
  const sigma2 = percentile(targets, cost, 0.75) + 1;
  for (const t of targets) {
    const s = nnf[t]!;
    const d = cost[t]!;
    const weight = Math.exp(-d / (2 * sigma2));
    const tx = t % width;
    const ty = (t - tx) / width;
    const sx = s % width;
    const sy = (s - sx) / width;
    for (let dy = -r; dy <= r; dy++) {
      const y = ty + dy;
      if (y < 0 || y >= height) {
        continue;
      }
      for (let dx = -r; dx <= r; dx++) {
        const x = tx + dx;
        if (x < 0 || x >= width || !hole[y * width + x]) {
          continue;
        }
        const k = slots.index[y * width + x]!;
        const source = (sy + dy) * width + sx + dx;
        if (best) {
          if (d < bestCost[k]!) {
            bestCost[k] = d;
            sourceOf[k] = source;
          }
          continue;
        }
        weights[k]! += weight;
        for (let c = 0; c < CHANNELS; c++) {
          accumulated[k * CHANNELS + c]! += weight * data[source * CHANNELS + c]!;
        }
      }
    }
  }
  for (let k = 0; k < count; k++) {
    const q = slots.pixels[k]! * CHANNELS;
    if (best) {
      const s = sourceOf[k]!;
      if (s >= 0) {
        for (let c = 0; c < CHANNELS; c++) data[q + c] = data[s * CHANNELS + c]!;
      }
    } else if (weights[k]! > 0) {
      for (let c = 0; c < CHANNELS; c++) data[q + c] = accumulated[k * CHANNELS + c]! / weights[k]!;
    }
  }
  return best ? sourceOf : undefined;
}

function percentile(targets: Int32Array, cost: Float64Array, fraction: number): number {
  const step = Math.max(1, Math.floor(targets.length / 2_000));
  const sample: number[] = [];
  for (let k = 0; k < targets.length; k += step) {
    const value = cost[targets[k]!]!;
    if (Number.isFinite(value)) {
      sample.push(value);
    }
  }
  if (sample.length === 0) {
    return 0;
  }
  sample.sort((a, b) => a - b);
  return sample[Math.min(sample.length - 1, Math.floor(sample.length * fraction))]!;
}

/**
 * Gradient-domain reconstruction of the finest level (Pérez et al. 2003, as in Darabi et al.'s image
 * melding): each unknown pixel keeps the colour differences to its four neighbours that its source pixel
 * has to the source's own neighbours (averaged where two neighbouring pixels came from different
 * sources), and the colours are solved (the shared solver of lib/poisson.ts) so that they meet the known pixels at
 * the hole's border. A copy slightly brighter than its new surroundings, or two copies that meet inside
 * the hole, then join without a visible edge while the texture's detail stays.
 */
function blendGradients(level: Level, sourceOf: Int32Array): void {
  const { width, height, data, hole } = level;
  const slots = holeSlots(level);
  const n = slots.pixels.length;
  const offsets = neighbourOffsets(width);
  const solver = createPoissonSolver(width, height, slots.pixels, slots.index);
  const links = solver.links;
  const neighbour = (p: number, o: number): number => {
    const x = p % width;
    if ((o === -1 && x === 0) || (o === 1 && x === width - 1)) return -1;
    const q = p + o;
    return q < 0 || q >= width * height ? -1 : q;
  };
  const rhs = new Float64Array(n);
  const x = new Float64Array(n);
  for (let c = 0; c < COLOURS; c++) {
    /** The step from a pixel's source to the source's neighbour at offset o, if that one is known. */
    const sourceStep = (k: number, o: number): number | undefined => {
      const s = sourceOf[k]!;
      const t = s < 0 ? -1 : neighbour(s, o);
      return t < 0 || hole[t] ? undefined : data[s * CHANNELS + c]! - data[t * CHANNELS + c]!;
    };
    for (let k = 0; k < n; k++) {
      const p = slots.pixels[k]!;
      let b = 0;
      for (let d = 0; d < 4; d++) {
        const j = links[k * 4 + d]!;
        if (j === OUTSIDE_IMAGE) continue;
        const o = offsets[d]!;
        // Where neither source shows this step (its neighbour there is unknown too), no edge is made.
        const own = sourceStep(k, o);
        if (j === KNOWN_NEIGHBOUR) {
          b += (own ?? 0) + data[(p + o) * CHANNELS + c]!;
          continue;
        }
        const theirs = sourceStep(j, -o);
        b +=
          own !== undefined && theirs !== undefined
            ? (own - theirs) / 2
            : (own ?? (theirs !== undefined ? -theirs : 0));
      }
      rhs[k] = b;
      x[k] = data[p * CHANNELS + c]!;
    }
    // From the copied colours, which are already close.
    solver.solve(rhs, x);
    for (let k = 0; k < n; k++) data[slots.pixels[k]! * CHANNELS + c] = x[k]!;
  }
}

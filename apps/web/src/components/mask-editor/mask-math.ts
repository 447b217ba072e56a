/**
 * Pure mask maths of the shared mask editor (mask rules). A mask is a
 * full-resolution `Uint8Array` of `width * height` alpha values, row-major: 255 = selected (drawn),
 * 0 = not selected. Everything here works on typed arrays with per-row fills so a 4096×4096 mask
 * (16 megapixels, the upload limit) stays fast.
 */

export const MASK_ON = 255;
export const MASK_OFF = 0;

export type BrushMode = "draw" | "erase";

export interface Point {
  x: number;
  y: number;
}

/** An integer pixel rectangle inside the mask. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the displayed (scaled) image sits on screen, as from `getBoundingClientRect()`. */
export interface DisplayBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Maps a pointer position (client coordinates) on the displayed, scaled canvas to full-resolution
 * image coordinates (fractional pixels; not clamped, so strokes may start just outside the image).
 * Returns null while the display box has no size (not laid out yet).
 */
export function displayToImage(
  clientX: number,
  clientY: number,
  box: DisplayBox,
  imageWidth: number,
  imageHeight: number,
): Point | null {
  if (!(box.width > 0) || !(box.height > 0)) return null;
  return {
    x: ((clientX - box.left) * imageWidth) / box.width,
    y: ((clientY - box.top) * imageHeight) / box.height,
  };
}

/** A new mask of `width * height`, copied from `initial` when it has exactly that size, else empty. */
export function createMask(width: number, height: number, initial?: Uint8Array | null): Uint8Array {
  const size = width * height;
  if (initial && initial.length === size) return initial.slice();
  return new Uint8Array(size);
}

/** The smallest rectangle holding both (either may be null). */
export function unionRect(a: Rect | null, b: Rect | null): Rect | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/**
 * Paints one segment a→b with a round brush of `radius` (a capsule: the segment widened by the radius
 * with round caps) into `mask`, setting every pixel whose centre lies inside to `value`. A zero-length
 * segment paints a disc. Works row by row: each row of a convex capsule is one interval, filled with
 * `TypedArray.fill`. Returns the changed area (clamped to the mask) or null when nothing is inside.
 */
export function paintSegment(
  mask: Uint8Array,
  width: number,
  height: number,
  a: Point,
  b: Point,
  radius: number,
  value: number,
): Rect | null {
  const r = Math.max(0, radius);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy);
  // The rectangle part of the capsule: a ± r·n, b ± r·n, with n the unit normal of the segment.
  const corners: Point[] = [];
  if (length > 0) {
    const nx = (-dy / length) * r;
    const ny = (dx / length) * r;
    corners.push(
      { x: a.x + nx, y: a.y + ny },
      { x: b.x + nx, y: b.y + ny },
      { x: b.x - nx, y: b.y - ny },
      { x: a.x - nx, y: a.y - ny },
    );
  }
  const yStart = Math.max(0, Math.ceil(Math.min(a.y, b.y) - r - 0.5));
  const yEnd = Math.min(height - 1, Math.floor(Math.max(a.y, b.y) + r - 0.5));
  const r2 = r * r;
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = -1;
  let maxY = -1;
  for (let y = yStart; y <= yEnd; y++) {
    const py = y + 0.5;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    // Both end discs.
    for (const c of length > 0 ? [a, b] : [a]) {
      const d = py - c.y;
      const h2 = r2 - d * d;
      if (h2 >= 0) {
        const h = Math.sqrt(h2);
        if (c.x - h < lo) lo = c.x - h;
        if (c.x + h > hi) hi = c.x + h;
      }
    }
    // The rectangle: where the row crosses its edges.
    for (let i = 0; i < corners.length; i++) {
      const p = corners[i]!;
      const q = corners[(i + 1) % corners.length]!;
      if (py < Math.min(p.y, q.y) || py > Math.max(p.y, q.y)) continue;
      if (p.y === q.y) {
        lo = Math.min(lo, p.x, q.x);
        hi = Math.max(hi, p.x, q.x);
      } else {
        const x = p.x + ((py - p.y) * (q.x - p.x)) / (q.y - p.y);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
    if (lo > hi) continue;
    const xs = Math.max(0, Math.ceil(lo - 0.5));
    const xe = Math.min(width - 1, Math.floor(hi - 0.5));
    if (xs > xe) continue;
    const row = y * width;
    mask.fill(value, row + xs, row + xe + 1);
    if (xs < minX) minX = xs;
    if (xe > maxX) maxX = xe;
    if (minY < 0) minY = y;
    maxY = y;
  }
  if (minY < 0) return null;
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/**
 * Rasterises a brush stroke (a polyline with round caps and joins) into `mask`: draw sets 255, erase
 * sets 0. Consecutive points are joined by full capsules, so fast strokes with far-apart pointer
 * samples leave no gaps. Returns the changed area or null.
 */
export function paintStroke(
  mask: Uint8Array,
  width: number,
  height: number,
  points: readonly Point[],
  radius: number,
  mode: BrushMode,
): Rect | null {
  const value = mode === "draw" ? MASK_ON : MASK_OFF;
  const first = points[0];
  if (!first) return null;
  if (points.length === 1) return paintSegment(mask, width, height, first, first, radius, value);
  let dirty: Rect | null = null;
  for (let i = 1; i < points.length; i++) {
    dirty = unionRect(dirty, paintSegment(mask, width, height, points[i - 1]!, points[i]!, radius, value));
  }
  return dirty;
}

/** A new mask with every value inverted (selected ↔ not selected); Reimagine's Invert Mask. */
export function invertMask(mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = 255 - mask[i]!;
  return out;
}

/** True when nothing is selected (all zero). Checks four bytes at a time when aligned. */
export function isMaskEmpty(mask: Uint8Array): boolean {
  let i = 0;
  if (mask.byteOffset % 4 === 0) {
    const words = new Uint32Array(mask.buffer, mask.byteOffset, mask.length >> 2);
    for (let w = 0; w < words.length; w++) if (words[w] !== 0) return false;
    i = words.length << 2;
  }
  for (; i < mask.length; i++) if (mask[i] !== 0) return false;
  return true;
}

/** One RGBA pixel packed in platform byte order, so 32-bit writes give the right bytes either way. */
function pack(r: number, g: number, b: number, a: number): number {
  return new Uint32Array(Uint8Array.of(r, g, b, a).buffer)[0]!;
}

function lookupTable(pixel: (value: number) => [number, number, number, number]): Uint32Array {
  const table = new Uint32Array(256);
  for (let v = 0; v < 256; v++) table[v] = pack(...pixel(v));
  return table;
}

const OPAQUE_TABLE = lookupTable((v) => [v, v, v, 255]);
/** An RGB colour, each channel 0–255. */
export type Rgb = readonly [r: number, g: number, b: number];

const WHITE: Rgb = [255, 255, 255];
const overlayTables = new Map<string, Uint32Array>();

function overlayTable(alpha: number, color: Rgb): Uint32Array {
  const a = Math.max(0, Math.min(255, Math.round(alpha)));
  const [r, g, b] = color;
  const key = `${a}:${r},${g},${b}`;
  let table = overlayTables.get(key);
  if (!table) {
    table = lookupTable((v) => (v === 0 ? [0, 0, 0, 0] : [r, g, b, Math.round((a * v) / 255)]));
    overlayTables.set(key, table);
  }
  return table;
}

function mapRegion(mask: Uint8Array, maskWidth: number, rect: Rect, table: Uint32Array): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rect.width * rect.height * 4);
  const out32 = new Uint32Array(out.buffer);
  let o = 0;
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    let i = y * maskWidth + rect.x;
    const end = i + rect.width;
    while (i < end) out32[o++] = table[mask[i++]!]!;
  }
  return out;
}

/** The opaque black/white RGBA image of a mask: selected = white, the rest black, alpha 255. */
export function maskToOpaqueRgba(mask: Uint8Array): Uint8ClampedArray {
  const out = new Uint8ClampedArray(mask.length * 4);
  const out32 = new Uint32Array(out.buffer);
  for (let i = 0; i < mask.length; i++) out32[i] = OPAQUE_TABLE[mask[i]!]!;
  return out;
}

/**
 * The transparent RGBA overlay of a mask region: selected = `color` (white by default) with `alpha`
 * (0–255, scaled by the mask value), the rest fully transparent.
 */
export function overlayRgbaRegion(
  mask: Uint8Array,
  maskWidth: number,
  rect: Rect,
  alpha = 255,
  color: Rgb = WHITE,
): Uint8ClampedArray {
  return mapRegion(mask, maskWidth, rect, overlayTable(alpha, color));
}

/** The transparent RGBA overlay of a whole mask (see `overlayRgbaRegion`). */
export function maskToOverlayRgba(mask: Uint8Array, width: number, alpha = 255): Uint8ClampedArray {
  const height = width > 0 ? Math.floor(mask.length / width) : 0;
  return mapRegion(mask, width, { x: 0, y: 0, width, height }, overlayTable(alpha, WHITE));
}

import { existsSync } from "node:fs";
import { NO_FACE_IN_SOURCE, NO_FACE_IN_TARGET } from "@prism/contract";
import { EngineError } from "../errors";
import { detectFaces, type FaceMesh, faceDetectorFiles, meshTriangles } from "../lib/face-mesh";
import { decodeImage, decodeMask, encodePng, type RasterImage } from "../lib/image";
import { countMasked } from "../lib/mask";
import { poissonBlend } from "../lib/poisson";
import type { Feature } from "./feature";

/** The blend region is pulled in from the mesh outline by this share of the face width (hairline, jaw). */
const EDGE_INSET = 0.03;

/** Bilinear sample of one channel of an RGB image. */
function sample(image: RasterImage, x: number, y: number, channel: number): number {
  const x0 = Math.max(0, Math.min(image.width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(image.height - 1, Math.floor(y)));
  const x1 = Math.min(image.width - 1, x0 + 1);
  const y1 = Math.min(image.height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const at = (px: number, py: number) => image.data[(py * image.width + px) * 3 + channel]!;
  const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
  const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * Warps the source face onto the target's mesh triangle by triangle (a piecewise affine map), returning
 * the warped pixels in the target's frame and which pixels the mesh covers.
 */
export function warpFace(
  source: RasterImage,
  sourceFace: FaceMesh,
  target: RasterImage,
  targetFace: FaceMesh,
  triangles: Uint32Array,
): { rgb: Uint8Array; covered: Uint8Array } {
  const rgb = new Uint8Array(target.data);
  const covered = new Uint8Array(target.width * target.height);
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!];
    const ta = targetFace.points[a]!;
    const tb = targetFace.points[b]!;
    const tc = targetFace.points[c]!;
    const sa = sourceFace.points[a]!;
    const sb = sourceFace.points[b]!;
    const sc = sourceFace.points[c]!;
    const det = (tb[1] - tc[1]) * (ta[0] - tc[0]) + (tc[0] - tb[0]) * (ta[1] - tc[1]);
    if (Math.abs(det) < 1e-6) continue;
    const minX = Math.max(0, Math.floor(Math.min(ta[0], tb[0], tc[0])));
    const maxX = Math.min(target.width - 1, Math.ceil(Math.max(ta[0], tb[0], tc[0])));
    const minY = Math.max(0, Math.floor(Math.min(ta[1], tb[1], tc[1])));
    const maxY = Math.min(target.height - 1, Math.ceil(Math.max(ta[1], tb[1], tc[1])));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const l1 = ((tb[1] - tc[1]) * (px - tc[0]) + (tc[0] - tb[0]) * (py - tc[1])) / det;
        const l2 = ((tc[1] - ta[1]) * (px - tc[0]) + (ta[0] - tc[0]) * (py - tc[1])) / det;
        const l3 = 1 - l1 - l2;
        if (l1 < -1e-4 || l2 < -1e-4 || l3 < -1e-4) continue;
        const sx = l1 * sa[0] + l2 * sb[0] + l3 * sc[0] - 0.5;
        const sy = l1 * sa[1] + l2 * sb[1] + l3 * sc[1] - 0.5;
        const i = y * target.width + x;
        covered[i] = 255;
        for (let ch = 0; ch < 3; ch++) {
          rgb[i * 3 + ch] = Math.round(sample(source, sx, sy, ch));
        }
      }
    }
  }
  return { rgb, covered };
}

/** Shrinks a mask by `radius` pixels (chessboard distance). */
function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  let current = mask;
  for (let step = 0; step < radius; step++) {
    const next = new Uint8Array(current.length);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        next[i] =
          current[i] && current[i - 1] && current[i + 1] && current[i - width] && current[i + width]
            ? 255
            : 0;
      }
    }
    current = next;
  }
  return current;
}

/** Moves the warped face's per-channel mean and spread to the target skin's, inside the region. */
function transferColour(warped: Uint8Array, target: Uint8Array, region: Uint8Array): void {
  for (let c = 0; c < 3; c++) {
    let sumW = 0;
    let sumT = 0;
    let sqW = 0;
    let sqT = 0;
    let n = 0;
    for (let i = 0; i < region.length; i++) {
      if (!region[i]) continue;
      const w = warped[i * 3 + c]!;
      const t = target[i * 3 + c]!;
      sumW += w;
      sumT += t;
      sqW += w * w;
      sqT += t * t;
      n++;
    }
    if (n === 0) return;
    const meanW = sumW / n;
    const meanT = sumT / n;
    const stdW = Math.sqrt(Math.max(1, sqW / n - meanW * meanW));
    const stdT = Math.sqrt(Math.max(1, sqT / n - meanT * meanT));
    // A partial spread match keeps the source's contrast (its identity) while fixing its exposure.
    const gain = Math.sqrt(stdT / stdW);
    for (let i = 0; i < region.length; i++) {
      if (!region[i]) continue;
      const value = (warped[i * 3 + c]! - meanW) * gain + meanT;
      warped[i * 3 + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
}

export async function swapFaces(
  sourceBytes: Uint8Array,
  targetBytes: Uint8Array,
  maskBytes?: Uint8Array,
): Promise<RasterImage> {
  const source = await decodeImage(sourceBytes, 3);
  const target = await decodeImage(targetBytes, 3);
  const [sourceFace] = await detectFaces(source);
  if (!sourceFace) {
    throw new EngineError("no-face", NO_FACE_IN_SOURCE);
  }
  const [targetFace] = await detectFaces(target);
  if (!targetFace) {
    throw new EngineError("no-face", NO_FACE_IN_TARGET);
  }
  const triangles = await meshTriangles();
  const { rgb: warped, covered } = warpFace(source, sourceFace, target, targetFace, triangles);
  const inset = Math.max(1, Math.round(targetFace.box[2] * EDGE_INSET));
  const region = erode(covered, target.width, target.height, inset);
  if (maskBytes) {
    const custom = await decodeMask(maskBytes, target.width, target.height);
    // An all-black mask is what the console sends when the custom mask is on but nothing was drawn.
    if (countMasked(custom) > 0) {
      for (let i = 0; i < region.length; i++) {
        if (!custom[i]) region[i] = 0;
      }
    }
  }
  transferColour(warped, target.data, region);
  const blended = poissonBlend(warped, target.data, region, target.width, target.height);
  return { ...target, data: blended };
}

export const faceSwapping: Feature<"face-swapping"> = {
  id: "face-swapping",
  async checkAvailability() {
    try {
      const missing = faceDetectorFiles().filter((file) => !existsSync(file));
      return missing.length === 0
        ? { available: true }
        : { available: false, reason: `The face models are missing (${missing.join(", ")}).` };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { available: false, reason: `The face models are not installed (${detail}).` };
    }
  },
  async run(input) {
    const result = await swapFaces(input.source, input.target, input.mask);
    const png = await encodePng(result);
    return { kind: "image", png, width: result.width, height: result.height };
  },
};

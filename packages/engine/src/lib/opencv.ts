import { createRequire } from "node:module";

/** The small part of OpenCV.js this engine uses. */
export interface OpenCvMat {
  data: Uint8Array;
  delete(): void;
}

export interface OpenCv {
  Mat: new () => OpenCvMat;
  matFromArray(rows: number, cols: number, type: number, data: ArrayLike<number>): OpenCvMat;
  inpaint(src: OpenCvMat, mask: OpenCvMat, dst: OpenCvMat, radius: number, flags: number): void;
  CV_8UC1: number;
  CV_8UC3: number;
  INPAINT_TELEA: number;
  INPAINT_NS: number;
}

let loading: Promise<OpenCv> | undefined;

/**
 * Loads OpenCV.js (wasm embedded in the package) once per worker. The Emscripten module is a thenable
 * whose `then` hands back the module itself, so a promise resolved with it would adopt it forever: its
 * `then` is removed once the runtime is ready.
 */
export function loadOpenCv(): Promise<OpenCv> {
  loading ??= new Promise<OpenCv>((resolve, reject) => {
    try {
      const require = createRequire(import.meta.url);
      const module = require("@techstark/opencv-js") as OpenCv & { then?: (ready: () => void) => void };
      const settle = () => {
        delete module.then;
        resolve(module);
      };
      if (typeof module.Mat === "function" && typeof module.inpaint === "function") {
        settle();
      } else if (typeof module.then === "function") {
        module.then(settle);
      } else {
        reject(new Error("OpenCV.js did not load."));
      }
    } catch (error) {
      reject(error);
    }
  });
  return loading;
}

/**
 * Telea's fast-marching inpainting (OpenCV): good for thin masks such as text strokes or scratches,
 * where it is far cheaper than exemplar-based completion; it smears large areas.
 */
export async function inpaintTelea(
  rgb: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
  radius = 3,
): Promise<Uint8Array> {
  const cv = await loadOpenCv();
  const src = cv.matFromArray(height, width, cv.CV_8UC3, rgb);
  const maskMat = cv.matFromArray(height, width, cv.CV_8UC1, mask);
  const dst = new cv.Mat();
  try {
    cv.inpaint(src, maskMat, dst, radius, cv.INPAINT_TELEA);
    return new Uint8Array(dst.data);
  } finally {
    src.delete();
    maskMat.delete();
    dst.delete();
  }
}

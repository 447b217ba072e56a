import { TRAINING_IMAGE_SHORT_SIDE, TRAINING_JPEG_QUALITY, TRAINING_MAX_IMAGES } from "@prism/contract";
import type { ImageSize } from "./upload-checks";

/**
 * The size a training photo is resized to: scaled, aspect ratio kept, so that its short side
 * is exactly `shortSide` (1024). Smaller photos are scaled up, larger ones down.
 */
export function trainingImageSize(size: ImageSize, shortSide = TRAINING_IMAGE_SHORT_SIDE): ImageSize {
  const { width, height } = size;
  if (width <= 0 || height <= 0) throw new Error("the image has no pixels");
  if (width <= height) {
    return { width: shortSide, height: Math.max(shortSide, Math.round((height * shortSide) / width)) };
  }
  return { width: Math.max(shortSide, Math.round((width * shortSide) / height)), height: shortSide };
}

/** How many of `offered` new photos are kept next to `current` ones: extras beyond 15 are ignored. */
export function keptCount(current: number, offered: number, max = TRAINING_MAX_IMAGES): number {
  return Math.max(0, Math.min(offered, max - current));
}

/** The sent name of a training photo: its own name with a .jpg extension, since it is sent as JPEG. */
export function jpegFileName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, "");
  return `${base || "photo"}.jpg`;
}

const encoded = new WeakMap<File, Promise<File>>();

async function encodeForTraining(file: File): Promise<File> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = trainingImageSize({ width: bitmap.width, height: bitmap.height });
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("The browser cannot draw images.");
    // JPEG has no alpha: transparent areas become white rather than black.
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, "image/jpeg", TRAINING_JPEG_QUALITY),
    );
    if (!blob) throw new Error(`The photo ${file.name} could not be encoded.`);
    return new File([blob], jpegFileName(file.name), { type: "image/jpeg" });
  } finally {
    bitmap.close();
  }
}

/**
 * A training photo as it is sent: short side 1024, JPEG quality 0.95. Encoded once per file, so Show
 * API Call and Start Training do not redo the work.
 */
export function prepareTrainingImage(file: File): Promise<File> {
  let pending = encoded.get(file);
  if (!pending) {
    pending = encodeForTraining(file);
    encoded.set(file, pending);
    pending.catch(() => encoded.delete(file));
  }
  return pending;
}

import {
  type FileInput,
  IMAGE_BYTES_EXCEEDED,
  IMAGE_PIXELS_EXCEEDED,
  IMAGE_TYPE_NOT_ACCEPTED,
  IMAGE_UNREADABLE,
  MAX_UPSCALE_PIXELS,
  type TitledMessage,
  UPSCALE_PIXELS_EXCEEDED,
} from "@prism/contract";

export interface ImageSize {
  width: number;
  height: number;
}

/** Reads an image's natural size by decoding it; rejects when the browser cannot read it. */
export function readImageSize(file: Blob): Promise<ImageSize> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      if (image.naturalWidth > 0 && image.naturalHeight > 0) {
        resolve({ width: image.naturalWidth, height: image.naturalHeight });
      } else {
        reject(new Error("empty image"));
      }
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable image"));
    };
    image.src = url;
  });
}

function hasAcceptedType(file: File, input: FileInput): boolean {
  const name = file.name.toLowerCase();
  if (input.acceptedExtensions.some((extension) => name.endsWith(extension.toLowerCase()))) return true;
  return file.type !== "" && input.acceptedMimeTypes.includes(file.type);
}

/**
 * The pixel-limit message of an input: its screen's wording from the catalog, else the upscaling
 * wording for the 4 MP limit or the 16 MP one.
 */
export function pixelLimitMessage(input: FileInput): TitledMessage {
  if (input.pixelLimitMessage) return input.pixelLimitMessage;
  return input.maxPixels !== undefined && input.maxPixels <= MAX_UPSCALE_PIXELS
    ? UPSCALE_PIXELS_EXCEEDED
    : IMAGE_PIXELS_EXCEEDED;
}

/**
 * The browser-side upload checks of the spec, in the order the user would fix them: a file of another
 * type is refused naming the accepted ones; one that cannot be decoded is unreadable (the spec's
 * Error Reading Image); then the 30 MB limit; then the pixel limit
 * of the input (16 MP, 4 MP for upscaling). Resolves null when the file may be sent; the server checks
 * the same limits again.
 */
export async function checkImageUpload(
  file: File,
  input: FileInput,
  readSize: (file: Blob) => Promise<ImageSize> = readImageSize,
): Promise<TitledMessage | null> {
  if (!hasAcceptedType(file, input)) return IMAGE_TYPE_NOT_ACCEPTED;
  if (file.size > input.maxBytes) return IMAGE_BYTES_EXCEEDED;
  let size: ImageSize;
  try {
    size = await readSize(file);
  } catch {
    return IMAGE_UNREADABLE;
  }
  if (input.maxPixels !== undefined && size.width * size.height > input.maxPixels) {
    return pixelLimitMessage(input);
  }
  return null;
}

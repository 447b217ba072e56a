import { THUMBNAIL_MAX_SIDE, THUMBNAIL_SUFFIX } from "@prism/contract";
import { loadSharp } from "../../providers/images/codecs";
import type { FileStore, StoredObject } from "../../providers/storage/file-store";

/**
 * Thumbnails are made when first asked for, not during the feature call (issue 16: a call's own cost is
 * what its caller waits for, and most results' thumbnails are only seen in the playground's history).
 * The first request makes it from the stored image and keeps it; later ones read the kept copy.
 */
export function isThumbnailKey(key: string): boolean {
  return key.endsWith(THUMBNAIL_SUFFIX);
}

export async function makeThumbnail(image: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(image, { limitInputPixels: false })
    .rotate()
    .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

/**
 * The thumbnail stored under `key` (an image's key with THUMBNAIL_SUFFIX), made and kept first when it
 * is missing; undefined when the image itself is missing or is not an image. Two first requests at once
 * both make it and write the same bytes, which is harmless.
 *
 * A request deleted while its thumbnail is being made must not keep the thumbnail: deleting removes the
 * images first and their thumbnails after ({@link deleteImagesWithThumbnails}), and this looks for the
 * image again once the thumbnail is written. Either the image was still there then, so the deletion's
 * removal of the thumbnail comes after this write, or it was gone, and this removes what it wrote.
 */
export async function readThumbnail(store: FileStore, key: string): Promise<StoredObject | undefined> {
  const kept = await store.get(key);
  if (kept) return kept;
  const imageKey = key.slice(0, -THUMBNAIL_SUFFIX.length);
  // One level only: no thumbnails of thumbnails, which deleting a request would leave behind.
  if (isThumbnailKey(imageKey)) return undefined;
  const image = await store.get(imageKey);
  if (!image?.contentType.startsWith("image/")) return undefined;
  const data = await makeThumbnail(image.data);
  await store.put(key, data, "image/webp");
  if (!(await store.get(imageKey))) {
    await store.delete(key);
    return undefined;
  }
  return { data, contentType: "image/webp" };
}

/**
 * Deletes stored files and their thumbnails: every file first, then every thumbnail, in that order
 * ({@link readThumbnail} relies on it to leave no thumbnail of a deleted image behind).
 */
export async function deleteImagesWithThumbnails(store: FileStore, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => store.delete(key)));
  await Promise.all(keys.map((key) => store.delete(`${key}${THUMBNAIL_SUFFIX}`)));
}

/**
 * The shared mask editor (mask rules).
 *
 * How screens use it:
 * - Keep `mask: Uint8Array | null` next to the uploaded image (object URL and natural width/height).
 *   Open `<MaskEditor opened imageUrl imageWidth imageHeight initialMask={mask} onDone onClose />` from
 *   the screen's mask button (disabled without an image), titled with that button's text.
 * - `onDone` gives the full-resolution mask plus `toOpaquePng()` / `toTransparentPng()`; store the mask
 *   (and encode when sending). `isMaskEmpty(mask)` tells whether anything was drawn.
 * - Uploading a new image resets the mask: the screen drops its mask (sets it to null) whenever the
 *   image changes; a mask of another size is ignored by the editor anyway.
 * - Face swapping with Use Custom Mask but nothing drawn sends `blackJpeg(width, height)` (all black,
 *   full size, JPEG quality 1).
 * - Reimagine's Invert Mask sends `maskToOpaquePng(invertMask(mask), width, height)`.
 */

export { MaskEditor, type MaskEditorProps, type MaskEditorResult } from "./mask-editor";
export { blackJpeg, encodeRgba, maskToOpaquePng, maskToTransparentPng } from "./mask-encode";
export {
  type BrushMode,
  createMask,
  type DisplayBox,
  displayToImage,
  invertMask,
  isMaskEmpty,
  MASK_OFF,
  MASK_ON,
  maskToOpaqueRgba,
  maskToOverlayRgba,
  overlayRgbaRegion,
  type Point,
  paintSegment,
  paintStroke,
  type Rect,
  type Rgb,
  unionRect,
} from "./mask-math";

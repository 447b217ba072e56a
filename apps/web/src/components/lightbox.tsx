import { LIGHTBOX_FADE_MS, LIGHTBOX_IMAGE_FADE_MS, LIGHTBOX_RESIZE_MS } from "@prism/contract";
import YetAnotherLightbox from "yet-another-react-lightbox";
import Counter from "yet-another-react-lightbox/plugins/counter";
import "yet-another-react-lightbox/styles.css";
import "yet-another-react-lightbox/plugins/counter.css";

export interface LightboxImage {
  src: string;
  alt: string;
  caption?: string;
}

/** The next index with wrap-around in both directions. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

const LABELS = {
  Lightbox: "Image gallery",
  Previous: "Previous image",
  Next: "Next image",
  Close: "Close gallery",
};

/**
 * The history gallery (001 §2) on yet-another-react-lightbox: opens on one image and steps through
 * all of them with wrap-around (buttons, arrow keys, swipe). The spec's timings: the gallery fades in
 * over 200 ms, moving to another image (and its size) takes 200 ms, and each image fades in over 100 ms.
 */
export function Lightbox({
  images,
  index,
  onIndexChange,
  onClose,
}: {
  images: readonly LightboxImage[];
  /** The open image, or null when the gallery is closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const opened = index !== null && images.length > 0;
  return (
    <YetAnotherLightbox
      open={opened}
      close={onClose}
      index={opened ? wrapIndex(index, images.length) : 0}
      slides={images.map((image) => ({ src: image.src, alt: image.alt }))}
      on={{ view: ({ index: shown }) => onIndexChange(shown) }}
      carousel={{ finite: false, preload: 1 }}
      animation={{ fade: LIGHTBOX_FADE_MS, swipe: LIGHTBOX_RESIZE_MS }}
      labels={LABELS}
      plugins={images.length > 1 ? [Counter] : []}
      styles={{
        container: { backgroundColor: "rgba(12, 14, 24, 0.88)" },
        // The image fade itself is a keyframe animation in app/styles.css, timed by this variable.
        slide: { "--prism-image-fade": `${LIGHTBOX_IMAGE_FADE_MS}ms` } as Record<string, string>,
      }}
      className="prism-lightbox"
    />
  );
}

import { LIGHTBOX_FADE_MS, LIGHTBOX_IMAGE_FADE_MS, LIGHTBOX_RESIZE_MS } from "@prism/contract";
import YetAnotherLightbox from "yet-another-react-lightbox";
import Counter from "yet-another-react-lightbox/plugins/counter";
import { useIsPhone } from "../lib/media";
import { formatImageSize, useImageSize } from "../lib/use-image-size";
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

/** The open picture's caption and size under it, e.g. "Result · 3 Nov 2026, 16:05 · 451 × 300 px". */
function SlideInfo({ src, caption }: { src: string; caption: string | undefined }) {
  const size = useImageSize(src);
  return (
    <div className="prism-lightbox-info" data-testid="lightbox-info">
      {caption ? <span>{caption}</span> : null}
      {size ? <span data-testid="lightbox-dimensions">{formatImageSize(size)}</span> : null}
    </div>
  );
}

/**
 * Every picture fills the space the gallery has, keeping its shape: a small result grows to a large
 * screen and a large one shrinks to a small one (the library keeps pictures at most at their own size).
 */
const FIT_TO_SCREEN = {
  style: {
    width: "100%",
    height: "100%",
    maxWidth: "100%",
    maxHeight: "100%",
    objectFit: "contain" as const,
  },
};

const LABELS = {
  Lightbox: "Image gallery",
  Previous: "Previous image",
  Next: "Next image",
  Close: "Close gallery",
};

/**
 * The history gallery on yet-another-react-lightbox: opens on one image and steps through
 * all of them with wrap-around (buttons, arrow keys, swipe). The spec's timings: the gallery fades in
 * over 200 ms, moving to another image (and its size) takes 200 ms, and each image fades in over 100 ms.
 * Pictures are fitted to the screen, with their caption and size in pixels below.
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
  // Room around the picture for the buttons and the caption; a phone's narrow screen keeps it for the picture.
  const isPhone = useIsPhone();
  return (
    <YetAnotherLightbox
      open={opened}
      close={onClose}
      index={opened ? wrapIndex(index, images.length) : 0}
      slides={images.map((image) => ({ src: image.src, alt: image.alt }))}
      on={{ view: ({ index: shown }) => onIndexChange(shown) }}
      carousel={{ finite: false, preload: 1, padding: isPhone ? "8px" : "48px", imageProps: FIT_TO_SCREEN }}
      render={{
        slideFooter: ({ slide }) => (
          <SlideInfo src={slide.src} caption={images.find((image) => image.src === slide.src)?.caption} />
        ),
      }}
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

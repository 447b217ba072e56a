import { useEffect, useState } from "react";

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The natural size of the image at `src`, null until it has loaded (or when it cannot). The browser
 * serves the bytes from its cache when the picture is already on screen.
 */
export function useImageSize(src: string | undefined): ImageSize | null {
  const [size, setSize] = useState<{ src: string; size: ImageSize } | null>(null);
  useEffect(() => {
    if (!src) return;
    let current = true;
    const image = new Image();
    image.onload = () => {
      if (current && image.naturalWidth > 0)
        setSize({ src, size: { width: image.naturalWidth, height: image.naturalHeight } });
    };
    image.src = src;
    return () => {
      current = false;
    };
  }, [src]);
  return size && size.src === src ? size.size : null;
}

/** "451 × 300 px". */
export function formatImageSize(size: ImageSize): string {
  return `${size.width} × ${size.height} px`;
}

import type { Feature } from "@prism/contract";
import type { HistoryItem } from "../api/use-history";

/** Added pixels on each side of the original (image extension). */
export interface Inset {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A finished edit shown as before and after. */
export interface Comparison {
  before: string;
  after: string;
  /** Where the original sits inside the result, when the result is larger (image extension). */
  inset?: Inset;
}

/**
 * The edits a before/after slider makes sense for, with the input that is "before": the picture that
 * was changed (for face swapping, the target that received the face). Generation and training have no
 * "before"; speech has no picture.
 */
const BEFORE_FIELD: Partial<Record<Feature["id"], string>> = {
  "image-background-removal": "image",
  "object-removal": "image",
  "text-removal": "image",
  "image-upscaling": "image",
  "image-extension": "image",
  "generative-fill": "image",
  reimagine: "image",
  "face-swapping": "target",
  "identity-inpainting": "image",
};

function pixels(value: unknown): number {
  const number = Number(value ?? 0);
  return Number.isFinite(number) && number > 0 ? number : 0;
}

/** The before/after of a finished row, or undefined when the feature or the row has none. */
export function comparisonOf(feature: Pick<Feature, "id">, item: HistoryItem): Comparison | undefined {
  const field = BEFORE_FIELD[feature.id];
  const before = field ? item.request_data.files[field]?.[0] : undefined;
  const after = item.response_data.file;
  if (!before || !after || item.status !== "done") return undefined;
  if (feature.id !== "image-extension") return { before, after };
  const body = item.request_data.body;
  return {
    before,
    after,
    inset: {
      top: pixels(body.top),
      right: pixels(body.right),
      bottom: pixels(body.bottom),
      left: pixels(body.left),
    },
  };
}

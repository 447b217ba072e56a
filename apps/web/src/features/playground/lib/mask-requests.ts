import {
  GENERATIVE_FILL_DEFAULT_CFG,
  GENERATIVE_FILL_DEFAULT_DENOISE,
  REIMAGINE_DENOISE_DECIMALS,
  type TitledMessage,
} from "@prism/contract";
import type { HistoryItem } from "../api/use-history";
import type { RowImage } from "../components/history-panel";

/**
 * The request rules of the mask screens (Object removal, Generative fill, Reimagine: the mask
 * rules and the non-production controls), kept free of React and canvas so they can be tested alone.
 */

/** The dialog shown when an action that needs a mask is clicked before one was drawn. */
export function maskMissingMessage(maskButtonLabel: string): TitledMessage {
  return {
    title: "No Mask Drawn",
    message: `Please click ${maskButtonLabel} and paint over the area first.`,
  };
}

/** The debug controls of generative fill: shown and sent only outside production. */
export interface FillDebugControls {
  denoise: number;
  cfg: number;
}

export const DEFAULT_FILL_DEBUG_CONTROLS: FillDebugControls = {
  denoise: GENERATIVE_FILL_DEFAULT_DENOISE,
  cfg: GENERATIVE_FILL_DEFAULT_CFG,
};

/**
 * The non-file fields of a generative fill call: the prompt (left out when empty; the server takes the
 * fill without one), plus denoise and cfg outside production only, where the server applies its
 * defaults instead.
 */
export function generativeFillBody(
  prompt: string,
  debug: FillDebugControls,
  isProduction: boolean,
): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  const trimmed = prompt.trim();
  if (trimmed) body.prompt = trimmed;
  if (!isProduction) {
    body.denoise = debug.denoise;
    body.cfg = debug.cfg;
  }
  return body;
}

/** Which mask a reimagine call carries. */
export type ReimagineMaskChoice = "none" | "drawn" | "inverted";

/**
 * Reimagine's mask: Use Mask exists only outside production, so production never
 * sends one; with Use Mask on, the drawn mask, or its inverse with Invert Mask.
 */
export function reimagineMaskChoice(options: {
  isProduction: boolean;
  useMask: boolean;
  invert: boolean;
}): ReimagineMaskChoice {
  if (options.isProduction || !options.useMask) return "none";
  return options.invert ? "inverted" : "drawn";
}

/** A denoise value as the slider shows it: 2 decimals. */
export function formatDenoise(value: number): string {
  return value.toFixed(REIMAGINE_DENOISE_DECIMALS);
}

/** Share of selected pixels of a mask (0–1), for the "n% selected" note next to the mask button. */
export function maskCoverage(mask: Uint8Array): number {
  if (mask.length === 0) return 0;
  let selected = 0;
  for (let index = 0; index < mask.length; index += 1) if ((mask[index] ?? 0) > 127) selected += 1;
  return selected / mask.length;
}

/** The coverage note next to a drawn mask, e.g. "12% of the image" ("<1%" for a small dot). */
export function formatCoverage(share: number): string {
  if (share > 0 && share < 0.01) return "<1% of the image";
  return `${Math.round(share * 100)}% of the image`;
}

/**
 * A mask screen's row pictures: Original, the mask laid over it (when one was sent), then the result
 * (history rows of object removal and identity inpainting).
 */
export function maskedRowImages(item: HistoryItem): RowImage[] {
  const images: RowImage[] = [];
  const original = item.request_data.files.image?.[0];
  const mask = item.request_data.files.mask?.[0];
  if (original) images.push({ label: "Original", url: original });
  if (original && mask) images.push({ label: "Mask overlay", url: mask, overlayOn: original });
  if (item.response_data.file) images.push({ label: "Result", url: item.response_data.file });
  return images;
}

/** Reimagine's rows show only Original and Result, even when a mask was sent. */
export function originalAndResult(item: HistoryItem): RowImage[] {
  const images: RowImage[] = [];
  const original = item.request_data.files.image?.[0];
  if (original) images.push({ label: "Original", url: original });
  if (item.response_data.file) images.push({ label: "Result", url: item.response_data.file });
  return images;
}

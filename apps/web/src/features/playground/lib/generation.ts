import {
  CUSTOM_RESOLUTION_LABEL,
  chargeNoticeText,
  DEFAULT_RESOLUTION,
  microsToUsd,
  type PriceInfo,
  RESOLUTIONS,
  resolutionLabel,
  usdToMicros,
} from "@prism/contract";

/** The pure parts of the two generation screens (Basic Image Generation, Pegasus Generation). */

export interface ImageSize {
  width: number;
  height: number;
}

export interface ResolutionOption {
  /** `"<width>x<height>"`, the Select's value. */
  value: string;
  /** e.g. `"1024x576 (16:9)"`, or `"1000x750 (custom)"` for a size outside the list. */
  label: string;
}

export function sizeKey(size: ImageSize): string {
  return `${size.width}x${size.height}`;
}

/** Reads a `"<width>x<height>"` value back; null for anything else. */
export function parseSizeKey(value: string | null): ImageSize | null {
  const match = /^(\d+)x(\d+)$/.exec(value ?? "");
  if (!match) return null;
  return { width: Number(match[1]), height: Number(match[2]) };
}

export function resolutionOptionLabel(size: ImageSize): string {
  return `${sizeKey(size)} (${resolutionLabel(size.width, size.height)})`;
}

/**
 * The Resolution choices: the four listed sizes, plus the current size labelled custom when
 * Reuse brought one that is not in the list, so the Select can still show what will be sent.
 */
export function resolutionOptions(current: ImageSize): ResolutionOption[] {
  const options = RESOLUTIONS.map((size) => ({ value: sizeKey(size), label: resolutionOptionLabel(size) }));
  if (resolutionLabel(current.width, current.height) === CUSTOM_RESOLUTION_LABEL) {
    options.push({ value: sizeKey(current), label: resolutionOptionLabel(current) });
  }
  return options;
}

/**
 * Price times image count, in micro-dollars so that 0.03 × 3 is exactly 0.09 before it is
 * shown with 3 decimals.
 */
export function totalPrice(unitPriceUsd: number, count: number): number {
  return microsToUsd(usdToMicros(unitPriceUsd) * BigInt(Math.max(1, Math.trunc(count))));
}

/** The cost line of a generation screen, e.g. "$0.080 will be charged" for 2 images at $0.04. */
export function generationChargeText(unitPriceUsd: number, count: number): string {
  return chargeNoticeText(totalPrice(unitPriceUsd, count));
}

/** The unit price of Pegasus generation: priceIdentity when an AI Clone is used. */
export function pegasusUnitPrice(priceInfo: PriceInfo, withClone: boolean): number {
  return withClone ? (priceInfo.priceIdentity ?? priceInfo.price) : priceInfo.price;
}

/** What Reuse puts back in the form from a history row's stored request body. */
export interface GenerationReuse {
  prompt: string;
  /** Null when the row was generated without a negative prompt. */
  negativePrompt: string | null;
  size: ImageSize;
  /** The AI Clone a Pegasus row used, by identity id; null without one. */
  identityId: string | null;
  artistic: boolean;
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Stored numbers may come back as numbers or as the multipart text they were sent as. */
function sideOf(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number > 0 ? number : null;
}

function booleanOf(value: unknown): boolean {
  return value === true || value === "true";
}

export function generationReuse(body: Record<string, unknown>): GenerationReuse {
  const width = sideOf(body.width);
  const height = sideOf(body.height);
  return {
    prompt: textOf(body.prompt) ?? "",
    negativePrompt: textOf(body.negative_prompt),
    size:
      width !== null && height !== null
        ? { width, height }
        : { width: DEFAULT_RESOLUTION.width, height: DEFAULT_RESOLUTION.height },
    identityId: textOf(body.identity_id),
    artistic: booleanOf(body.artistic),
  };
}

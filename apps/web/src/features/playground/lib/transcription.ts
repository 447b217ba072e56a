import type { TranscriptionResult } from "@prism/contract";
import {
  billableAudioMinutes,
  chargeNoticeText,
  formatCost,
  microsToUsd,
  transcriptionResultSchema,
  usdToMicros,
} from "@prism/contract";

/** A segment's timestamp with tenths, e.g. 3.42 → "0:03.4". */
export function formatTimestamp(seconds: number): string {
  const tenths = Math.max(0, Math.floor(seconds * 10));
  const minutes = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${minutes}:${rest.toFixed(1).padStart(4, "0")}`;
}

/**
 * The transcription price line (priced per minute, the audio rounded up to whole minutes), e.g.
 * "$0.006 per minute · 1 minute: $0.006 will be charged"; only the rate before a file is chosen.
 */
export function transcriptionPriceLine(pricePerMinute: number, durationSeconds: number | null): string {
  const rate = `${formatCost(pricePerMinute)} per minute`;
  if (durationSeconds === null) return rate;
  const minutes = billableAudioMinutes(durationSeconds);
  return `${rate} · ${minutes} ${minutes === 1 ? "minute" : "minutes"}: ${chargeNoticeText(microsToUsd(usdToMicros(pricePerMinute) * BigInt(minutes)))}`;
}

/** The stored transcription body, or null while there is none (generating, failed) or it has another shape. */
export function transcriptionOf(body: unknown): (TranscriptionResult & { duration?: number }) | null {
  const parsed = transcriptionResultSchema.safeParse(body);
  if (!parsed.success) return null;
  const duration =
    typeof body === "object" && body !== null && "duration" in body && typeof body.duration === "number"
      ? body.duration
      : undefined;
  return duration === undefined ? parsed.data : { ...parsed.data, duration };
}

/** The full transcript: the segments' texts in order. */
export function transcriptText(result: TranscriptionResult): string {
  return result.segments
    .map((segment) => segment.text.trim())
    .filter(Boolean)
    .join(" ");
}

/** A download link for the stored JSON body when the record has no result file (speech.json). */
export function jsonDataUrl(body: unknown): string {
  return `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(body, null, 2))}`;
}

import type { RequestStatus } from "@prism/contract";

/** A call's status badge colour in the Requests view and its drawer. */
export const STATUS_COLORS: Record<RequestStatus, string> = {
  queued: "gray",
  generating: "blue",
  done: "teal",
  error: "red",
  canceled: "gray",
};

/** "850 ms", "12.4 s", "3 min 05 s"; a dash while the call runs. */
export function formatCallDuration(durationMs: number | null): string {
  if (durationMs === null) return "—";
  if (durationMs < 1_000) return `${durationMs} ms`;
  if (durationMs < 60_000) return `${(durationMs / 1_000).toFixed(1)} s`;
  const seconds = Math.round(durationMs / 1_000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** The first characters of a call's id: enough to tell calls apart in a row; the drawer has it whole. */
export function shortRequestId(id: string): string {
  return id.slice(0, 8);
}

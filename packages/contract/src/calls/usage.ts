import { z } from "zod";
import { idSchema, isoDateSchema, usdSchema } from "../fields";
import { MICRO_DIGITS, MICROS_PER_USD, PRODUCT_NAME } from "../limits";

const MICROS_PER_USD_BIG = BigInt(MICROS_PER_USD);

/**
 * Ours (issue 18): usage and money people can act on. For API keys, `GET /v1/usage` (buckets of the
 * key's project from the daily rollup; one call is `GET /v1/requests/{id}`, call-status.ts); for
 * the console, CSV exports of the home page's month and projects. These are GET routes, not the
 * spec's JSON POST calls, so they are described here rather than with `defineCall`.
 */

export const USAGE_PATH = "/v1/usage";

export const USAGE_GROUPS = ["day", "feature", "project", "api_key"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
/** The longest range one usage query may span, in days (both ends included). */
export const USAGE_MAX_DAYS = 366;
/** What a call made from the console rather than with an API key is listed as. */
export const PLAYGROUND_CALLER = "Playground";

const DAY_MS = 86_400_000;

/** Days from `start` to `end`, both included (dates as YYYY-MM-DD). */
export function daysInRange(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

export const usageQuery = z
  .object({
    /** First UTC day, included. */
    start: isoDateSchema,
    /** Last UTC day, included. */
    end: isoDateSchema,
    group_by: z.enum(USAGE_GROUPS),
  })
  .refine((query) => query.end >= query.start, { message: "end must not be before start.", path: ["end"] })
  .refine((query) => daysInRange(query.start, query.end) <= USAGE_MAX_DAYS, {
    message: `The range may span at most ${USAGE_MAX_DAYS} days.`,
    path: ["end"],
  });
export type UsageQuery = z.infer<typeof usageQuery>;

export const usageBucketSchema = z.object({
  /** The day (YYYY-MM-DD), the feature's endpoint, the project id, or the API key id (null: the console). */
  key: z.string().nullable(),
  /** The day, the feature's name, the project's name, or the key's name ("Playground" for the console). */
  name: z.string(),
  calls: z.number().int(),
  units: z.number().int(),
  /** Dollars, exact from micro-dollars. */
  cost: usdSchema,
});
export type UsageBucket = z.infer<typeof usageBucketSchema>;

export const usageResponse = z.object({
  start: isoDateSchema,
  end: isoDateSchema,
  group_by: z.enum(USAGE_GROUPS),
  buckets: z.array(usageBucketSchema),
});
export type UsageResponse = z.infer<typeof usageResponse>;

// ---------------------------------------------------------------------------------------------------
// CSV exports of the home page (session; the statistics' permission on every project named).
// ---------------------------------------------------------------------------------------------------

export const USAGE_EXPORT_PATH = "/v1/users/usage/export-calls";
export const USAGE_SUMMARY_EXPORT_PATH = "/v1/users/usage/export-summary";
export const EXPORT_CSV_LABEL = "Export CSV";
export const EXPORT_SUMMARY_LABEL = "Summary CSV";

const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The query of both exports: `?month=YYYY-MM&projectIds=<id>,<id>`. */
export const usageExportQuery = z.object({
  month: z.string().regex(MONTH_PATTERN, "month must be YYYY-MM."),
  projectIds: z
    .string()
    .transform((value) => [...new Set(value.split(",").filter((id) => id !== ""))])
    .pipe(z.array(idSchema).min(1).max(1_000)),
});
export type UsageExportQuery = z.infer<typeof usageExportQuery>;

/** The export's query string for a month (1-12) and projects. */
export function usageExportSearch(year: number, month: number, projectIds: readonly string[]): string {
  const monthText = `${year}-${String(month).padStart(2, "0")}`;
  return `month=${monthText}&projectIds=${projectIds.map(encodeURIComponent).join(",")}`;
}

export const USAGE_EXPORT_COLUMNS = [
  "Time (UTC)",
  "Project",
  "Endpoint",
  "Feature",
  "API key",
  "Status",
  "Units",
  "Cost (USD)",
  "Request ID",
] as const;

export const USAGE_SUMMARY_COLUMNS = ["Day", "Endpoint", "Feature", "Calls", "Units", "Cost (USD)"] as const;

export function usageExportFileName(month: string, kind: "calls" | "summary"): string {
  return `${PRODUCT_NAME.toLowerCase()}-usage-${month}-${kind}.csv`;
}

/** Micro-dollars as exact dollar text with 6 decimals, as the CSV exports write money. */
export function microsToDecimalText(micros: bigint): string {
  const negative = micros < 0n;
  const magnitude = negative ? -micros : micros;
  const text = `${magnitude / MICROS_PER_USD_BIG}.${(magnitude % MICROS_PER_USD_BIG).toString().padStart(MICRO_DIGITS, "0")}`;
  return negative ? `-${text}` : text;
}

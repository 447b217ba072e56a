// Display formats of the spec. Every function is pure; the time zone is a parameter so
// tests are deterministic and the default (undefined) renders in the viewer's own time zone.

import { formatBalance, formatCost as formatContractCost } from "@prism/contract";

const INVALID = "—";

/** A trailing `Z` or `±hh:mm` / `±hhmm` offset: the timestamp names its own zone. */
const HAS_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

/**
 * Parses an API timestamp. Spec rule: a timestamp without a zone designator is UTC, not local time
 * (the browser's `Date` would otherwise read "2026-11-03T16:05:00" as local).
 */
export function parseUtcTimestamp(value: string | number | Date): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (typeof value === "number") return new Date(value);
  const text = value.trim().replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`);
  return new Date(HAS_ZONE.test(text) ? text : `${text}Z`);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hour12: true,
      timeZone,
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** "Nov 03, 2026, 04:05 PM": month abbreviation, two-digit day, year, 12-hour time. */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const date = parseUtcTimestamp(value);
  if (Number.isNaN(date.getTime())) return INVALID;
  return dateTimeFormat(timeZone).format(date);
}

/**
 * The console's one date format, the spec's (month abbreviation, two-digit day, year), as the date
 * pickers write it with dayjs: "Nov 03, 2026". Months alone read "Nov 2026".
 */
export const DATE_FORMAT = "MMM DD, YYYY";
export const MONTH_FORMAT = "MMM YYYY";

const dateFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "2-digit",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * "Nov 03, 2026": a calendar day (the invoice date), read and shown in UTC so the day never shifts; the
 * same words as `formatDateTime` without the time.
 */
export function formatDate(value: string | number | Date): string {
  const date = parseUtcTimestamp(value);
  if (Number.isNaN(date.getTime())) return INVALID;
  return dateFormat.format(date);
}

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

/** "Nov 2026": a month of the year (1 to 12). */
export function formatMonth({ year, month }: { year: number; month: number }): string {
  return monthFormat.format(new Date(Date.UTC(year, month - 1, 1)));
}

/** "$1,234.50": balances, invoices, recharge amounts (the contract's exact rounding). */
export function formatUsd(amount: number): string {
  return Number.isFinite(amount) ? formatBalance(amount) : INVALID;
}

/** "$0.125": per-call prices and usage costs (the contract's exact rounding). */
export function formatCost(amount: number): string {
  return Number.isFinite(amount) ? formatContractCost(amount) : INVALID;
}

/**
 * "m:ss" of a duration in seconds, counting whole seconds as the browsers' media players do (2.8 s reads
 * "0:02" there), so the duration written beside a player agrees with the player's own.
 */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

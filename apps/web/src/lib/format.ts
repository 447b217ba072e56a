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

const shortDateFormat = new Intl.DateTimeFormat("en-US", {
  month: "2-digit",
  day: "2-digit",
  year: "numeric",
  timeZone: "UTC",
});

/** "11/03/2026": the invoice date, read and shown in UTC so the calendar day never shifts. */
export function formatShortDate(value: string | number | Date): string {
  const date = parseUtcTimestamp(value);
  if (Number.isNaN(date.getTime())) return INVALID;
  return shortDateFormat.format(date);
}

/** "$1,234.50": balances, invoices, recharge amounts (the contract's exact rounding). */
export function formatUsd(amount: number): string {
  return Number.isFinite(amount) ? formatBalance(amount) : INVALID;
}

/** "$0.125": per-call prices and usage costs (the contract's exact rounding). */
export function formatCost(amount: number): string {
  return Number.isFinite(amount) ? formatContractCost(amount) : INVALID;
}

/** "m:ss" of a duration in seconds, e.g. 2.8 → "0:03", 75 → "1:15". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

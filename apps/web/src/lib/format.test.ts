import { describe, expect, it } from "vitest";
import {
  formatCost,
  formatDate,
  formatDateTime,
  formatDuration,
  formatMonth,
  formatUsd,
  parseUtcTimestamp,
} from "./format";

describe("parseUtcTimestamp", () => {
  it("reads a zone-less timestamp as UTC", () => {
    expect(parseUtcTimestamp("2026-11-03T16:05:00").toISOString()).toBe("2026-11-03T16:05:00.000Z");
    expect(parseUtcTimestamp("2026-11-03 16:05:00").toISOString()).toBe("2026-11-03T16:05:00.000Z");
  });

  it("keeps an explicit zone", () => {
    expect(parseUtcTimestamp("2026-11-03T16:05:00Z").toISOString()).toBe("2026-11-03T16:05:00.000Z");
    expect(parseUtcTimestamp("2026-11-03T18:05:00+02:00").toISOString()).toBe("2026-11-03T16:05:00.000Z");
  });

  it("reads a bare date as midnight UTC", () => {
    expect(parseUtcTimestamp("2026-11-03").toISOString()).toBe("2026-11-03T00:00:00.000Z");
  });
});

describe("formatDateTime", () => {
  it("shows month abbreviation, two-digit day, year and 12-hour time", () => {
    expect(formatDateTime("2026-11-03T16:05:00Z", "UTC")).toBe("Nov 03, 2026, 04:05 PM");
  });

  it("treats a zone-less timestamp as UTC before converting to the viewer's zone", () => {
    expect(formatDateTime("2026-11-03T16:05:00", "UTC")).toBe("Nov 03, 2026, 04:05 PM");
    expect(formatDateTime("2026-11-03T16:05:00", "America/New_York")).toBe("Nov 03, 2026, 11:05 AM");
  });

  it("shows midnight as 12 AM", () => {
    expect(formatDateTime("2026-01-09T00:30:00Z", "UTC")).toBe("Jan 09, 2026, 12:30 AM");
  });

  it("shows a dash for an unreadable value", () => {
    expect(formatDateTime("not a date", "UTC")).toBe("—");
  });
});

describe("formatDate and formatMonth", () => {
  it("show the UTC calendar day in the console's one format, the date-time's words without the time", () => {
    expect(formatDate("2026-11-03")).toBe("Nov 03, 2026");
    expect(formatDate("2026-11-03T23:59:59Z")).toBe("Nov 03, 2026");
    expect(formatDate("2026-11-03T00:00:00")).toBe("Nov 03, 2026");
    expect(formatDateTime("2026-11-03T16:05:00Z", "UTC").startsWith(formatDate("2026-11-03"))).toBe(true);
  });

  it("show a month as its abbreviation and year", () => {
    expect(formatMonth({ year: 2026, month: 11 })).toBe("Nov 2026");
    expect(formatMonth({ year: 2027, month: 1 })).toBe("Jan 2027");
  });
});

describe("formatUsd", () => {
  it("shows dollars with 2 decimals and thousands separators", () => {
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("rounds half up on the printed decimal value", () => {
    expect(formatUsd(1.005)).toBe("$1.01");
    expect(formatUsd(2.004)).toBe("$2.00");
  });

  it("keeps the sign of a negative amount", () => {
    expect(formatUsd(-3)).toBe("-$3.00");
  });
});

describe("formatCost", () => {
  it("shows dollars with 3 decimals", () => {
    expect(formatCost(0.125)).toBe("$0.125");
    expect(formatCost(2)).toBe("$2.000");
  });

  it("rounds to the nearest tenth of a cent", () => {
    expect(formatCost(0.12345)).toBe("$0.123");
    expect(formatCost(0.0125)).toBe("$0.013");
  });
});

describe("formatDuration", () => {
  it("shows minutes and two-digit seconds", () => {
    // Whole seconds, as the audio player next to it counts them.
    expect(formatDuration(2.79)).toBe("0:02");
    expect(formatDuration(59.999)).toBe("0:59");
    expect(formatDuration(75)).toBe("1:15");
    expect(formatDuration(300)).toBe("5:00");
    expect(formatDuration(0)).toBe("0:00");
  });
});

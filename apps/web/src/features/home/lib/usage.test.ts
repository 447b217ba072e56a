import {
  ALL_FEATURES,
  backgroundRemovalFeature,
  type EndpointDescriptor,
  imageGenerationFeature,
  type StatisticsRecord,
  transcriptionFeature,
  upscalingFeature,
} from "@prism/contract";
import { describe, expect, it } from "vitest";
import {
  ALL_FEATURES_VALUE,
  buildDailySeries,
  buildFeatureOptions,
  buildUsageRows,
  dailySeriesCaption,
  featureKey,
  pieSlices,
  pieStrokeWidth,
  shiftMonth,
  totalCost,
  type UsageRow,
} from "./usage";

const ENDPOINTS: EndpointDescriptor[] = [
  { endpoint: "/v1/images/generation", callType: "generation", name: "Image Generation", orderPos: 130 },
  {
    endpoint: "/v1/images/background-removal",
    callType: "background-removal",
    name: "Background Removal",
    orderPos: 60,
  },
  { endpoint: "/v1/images/upscaling", callType: "upscaling", name: "Image Upscaling", orderPos: 50 },
  { endpoint: "/v1/speech/transcription", callType: "transcription", name: "Speech to Text", orderPos: 40 },
];

function record(
  endpoint: string,
  callType: string,
  day: number,
  units: number,
  cost: number,
): StatisticsRecord {
  return {
    endpoint,
    callType,
    recordDate: `2026-11-${String(day).padStart(2, "0")}`,
    unitsUsed: units,
    balanceUsed: cost,
  };
}

function row(name: string, cost: number, percent: number): UsageRow {
  return { key: name, name, orderPos: 0, units: 1, cost, percent, color: `#${name}`, unit: "call" };
}

describe("feature dropdown", () => {
  it("puts All Features first, leaves out features without data and sorts by orderPos descending", () => {
    const options = buildFeatureOptions(
      [
        record("/v1/images/upscaling", "upscaling", 2, 1, 0.02),
        record("/v1/speech/transcription", "transcription", 3, 2, 0.01),
        record("/v1/images/generation", "generation", 4, 3, 0.09),
        record("/v1/images/upscaling", "upscaling", 5, 1, 0.02),
        record("/v1/images/background-removal", "background-removal", 6, 0, 0),
      ],
      ENDPOINTS,
    );
    expect(options.map((option) => option.label)).toEqual([
      ALL_FEATURES,
      "Image Generation",
      "Image Upscaling",
      "Speech to Text",
    ]);
    expect(options[0]?.value).toBe(ALL_FEATURES_VALUE);
  });

  it("offers only All Features for an empty month", () => {
    expect(buildFeatureOptions([], ENDPOINTS)).toEqual([{ value: ALL_FEATURES_VALUE, label: ALL_FEATURES }]);
  });

  it("matches call types case-insensitively and names unknown ones by their call type", () => {
    const options = buildFeatureOptions(
      [record("/v1/images/upscaling", "UPSCALING", 1, 1, 0.02), record("/v1/x", "mystery", 1, 1, 0.01)],
      ENDPOINTS,
    );
    expect(options.map((option) => option.label)).toEqual([ALL_FEATURES, "Image Upscaling", "mystery"]);
  });
});

describe("usage table", () => {
  it("sums units and cost per feature with the share of the month's cost", () => {
    const rows = buildUsageRows(
      [
        record("/v1/images/background-removal", "background-removal", 1, 2, 0.02),
        record("/v1/images/background-removal", "background-removal", 2, 1, 0.01),
        record("/v1/images/upscaling", "upscaling", 2, 1, 0.01),
      ],
      ENDPOINTS,
    );
    expect(rows.map((entry) => [entry.name, entry.units, entry.cost, Math.round(entry.percent)])).toEqual([
      ["Background Removal", 3, 0.03, 75],
      ["Image Upscaling", 1, 0.01, 25],
    ]);
  });
});

describe("usage cost sums", () => {
  it("adds costs in exact micro-dollars, so the table and the total show no float drift", () => {
    const rows = buildUsageRows(
      [
        record("/v1/images/upscaling", "upscaling", 1, 1, 0.1),
        record("/v1/images/upscaling", "upscaling", 2, 1, 0.2),
        record("/v1/images/background-removal", "background-removal", 2, 1, 0.000001),
      ],
      ENDPOINTS,
    );
    // As floats, 0.1 + 0.2 is 0.30000000000000004.
    expect(rows.map((entry) => entry.cost)).toEqual([0.000001, 0.3]);
    expect(totalCost(rows)).toBe(0.300001);
    expect(pieSlices(rows).map((slice) => slice.value)).toEqual([0.3, 0.000001]);
  });
});

describe("pie chart rule", () => {
  it("shows every feature above 1 percent when at least 4 qualify", () => {
    const slices = pieSlices([
      row("A", 40, 40),
      row("B", 30, 30),
      row("C", 20, 20),
      row("D", 9.5, 9.5),
      row("E", 0.5, 0.5),
    ]);
    expect(slices.map((slice) => slice.name)).toEqual(["A", "B", "C", "D"]);
  });

  it("falls back to the top 4 by cost when fewer than 4 are above 1 percent", () => {
    const slices = pieSlices([
      row("Small1", 0.5, 0.5),
      row("Big", 98, 98),
      row("Small2", 0.8, 0.8),
      row("Tiny", 0.2, 0.2),
      row("Small3", 0.5, 0.5),
    ]);
    expect(slices.map((slice) => slice.name)).toEqual(["Big", "Small2", "Small1", "Small3"]);
  });

  it("keeps all of fewer than 4 features and nothing for an empty month", () => {
    expect(pieSlices([row("A", 1, 50), row("B", 1, 50)]).map((slice) => slice.name)).toEqual(["A", "B"]);
    expect(pieSlices([])).toEqual([]);
  });
});

describe("feature colours and units", () => {
  const records = [
    record("/v1/images/generation", "generation", 2, 3, 0.06),
    record("/v1/images/background-removal", "background-removal", 3, 2, 0.02),
    record("/v1/images/upscaling", "upscaling", 3, 1, 0.02),
    record("/v1/speech/transcription", "transcription", 4, 5, 0.03),
  ];

  it("gives a feature its catalog colour in the bars, the pie and the table, whatever else is shown", () => {
    const expected = new Map([
      ["Image Generation", imageGenerationFeature.color],
      ["Background Removal", backgroundRemovalFeature.color],
      ["Image Upscaling", upscalingFeature.color],
      ["Speech to Text", transcriptionFeature.color],
    ]);
    const rows = buildUsageRows(records, ENDPOINTS);
    for (const entry of rows) expect(entry.color).toBe(expected.get(entry.name));
    for (const slice of pieSlices(rows)) expect(slice.color).toBe(expected.get(slice.name));
    const options = buildFeatureOptions(records, ENDPOINTS);
    const all = buildDailySeries(records, options, ALL_FEATURES_VALUE, 2026, 11);
    for (const series of all.series) expect(series.color).toBe(expected.get(series.label));
    // Filtering the bars to one feature, or a month with fewer features, keeps its colour.
    const alone = buildDailySeries(
      records.slice(2),
      buildFeatureOptions(records.slice(2), ENDPOINTS),
      ALL_FEATURES_VALUE,
      2026,
      11,
    );
    expect(alone.series.find((series) => series.label === "Speech to Text")?.color).toBe(
      transcriptionFeature.color,
    );
  });

  it("says what a unit is for each feature", () => {
    const units = new Map(buildUsageRows(records, ENDPOINTS).map((entry) => [entry.name, entry.unit]));
    expect(units.get("Image Generation")).toBe("image");
    expect(units.get("Background Removal")).toBe("call");
    expect(units.get("Speech to Text")).toBe("audio-minute");
  });
});

describe("daily series", () => {
  it("has one bar group per day of the month and filters to the chosen feature", () => {
    const records = [
      record("/v1/images/background-removal", "background-removal", 3, 2, 0.02),
      record("/v1/images/upscaling", "upscaling", 3, 1, 0.02),
    ];
    const options = buildFeatureOptions(records, ENDPOINTS);
    const all = buildDailySeries(records, options, ALL_FEATURES_VALUE, 2026, 2);
    expect(all.data).toHaveLength(28);
    expect(all.series).toHaveLength(2);
    const only = buildDailySeries(records, options, featureKey(records[1] as StatisticsRecord), 2026, 11);
    expect(only.data).toHaveLength(30);
    expect(only.series.map((series) => series.label)).toEqual(["Image Upscaling"]);
    expect(only.data[2]).toEqual({ day: "03", s0: 1 });
  });

  it("stacks the cost of every feature, never their units of different kinds, and one feature's units by name", () => {
    const records = [
      record("/v1/images/background-removal", "background-removal", 3, 2, 0.02),
      record("/v1/speech/transcription", "transcription", 3, 4, 0.024),
      record("/v1/speech/transcription", "transcription", 3, 1, 0.006),
    ];
    const options = buildFeatureOptions(records, ENDPOINTS);
    const all = buildDailySeries(records, options, ALL_FEATURES_VALUE, 2026, 11);
    expect(all.measure).toBe("cost");
    const transcription = all.series.find((series) => series.label === "Speech to Text")?.name ?? "";
    const removal = all.series.find((series) => series.label === "Background Removal")?.name ?? "";
    // Summed in micro-dollars: 0.024 + 0.006 is exactly 0.03.
    expect(all.data[2]?.[transcription]).toBe(0.03);
    expect(all.data[2]?.[removal]).toBe(0.02);
    expect(dailySeriesCaption(all, "November 2026")).toBe("Cost per day of November 2026, by feature");

    const minutes = buildDailySeries(records, options, featureKey(records[1] as StatisticsRecord), 2026, 11);
    expect(minutes).toMatchObject({ measure: "units", unit: "audio-minute" });
    expect(minutes.data[2]).toEqual({ day: "03", s0: 5 });
    expect(dailySeriesCaption(minutes, "November 2026")).toBe("Minutes per day of November 2026");
  });

  it("steps months across years", () => {
    expect(shiftMonth({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(shiftMonth({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
  });

  it("draws a single feature as a full disc without a seam, and outlines slices when there are more", () => {
    expect(pieStrokeWidth(1)).toBe(0);
    expect(pieStrokeWidth(2)).toBe(1);
    expect(pieStrokeWidth(13)).toBe(1);
  });
});

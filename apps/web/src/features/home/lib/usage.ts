import {
  ALL_FEATURES,
  BILLING_UNIT_NAMES,
  type BillingUnit,
  type EndpointDescriptor,
  featureByEndpoint,
  microsToUsd,
  PIE_MIN_PERCENT,
  PIE_MIN_SLICES,
  type StatisticsRecord,
  usageColor,
  usdToMicros,
} from "@prism/contract";

/** The dropdown value of "All Features". */
export const ALL_FEATURES_VALUE = "all";

/** Usage of an endpoint the catalog does not know (an older feature) is drawn in grey. */
export const UNKNOWN_FEATURE_COLOR = "#868e96";

/** One feature of the usage page: an endpoint's call type, as the descriptors name it. */
export function featureKey(record: { endpoint: string; callType: string }): string {
  return `${record.endpoint}#${record.callType.toLowerCase()}`;
}

/**
 * A feature's colour from the catalog, the same in the bars, their legend, the pie and the table
 * whatever else the month shows (the spec's 5-colour palette made features share colours).
 */
export function featureColor(key: string): string {
  const split = key.lastIndexOf("#");
  return usageColor(key.slice(0, split), key.slice(split + 1)) ?? UNKNOWN_FEATURE_COLOR;
}

export interface FeatureOption {
  value: string;
  label: string;
}

function descriptorMap(endpoints: readonly EndpointDescriptor[]): Map<string, EndpointDescriptor> {
  return new Map(endpoints.map((descriptor) => [featureKey(descriptor), descriptor]));
}

/**
 * The feature filter: All Features first, then every descriptor that has data in the month,
 * by orderPos descending. Features with no data are left out; records without a descriptor are named
 * by their call type so usage never disappears.
 */
export function buildFeatureOptions(
  statistics: readonly StatisticsRecord[],
  endpoints: readonly EndpointDescriptor[],
): FeatureOption[] {
  const descriptors = descriptorMap(endpoints);
  const withData = new Map<string, { label: string; orderPos: number }>();
  for (const record of statistics) {
    if (record.unitsUsed <= 0 && record.balanceUsed <= 0) continue;
    const key = featureKey(record);
    if (withData.has(key)) continue;
    const descriptor = descriptors.get(key);
    withData.set(key, {
      label: descriptor?.name ?? record.callType,
      orderPos: descriptor?.orderPos ?? Number.NEGATIVE_INFINITY,
    });
  }
  const options = [...withData.entries()]
    .sort(([, a], [, b]) => b.orderPos - a.orderPos || a.label.localeCompare(b.label))
    .map(([value, { label }]) => ({ value, label }));
  return [{ value: ALL_FEATURES_VALUE, label: ALL_FEATURES }, ...options];
}

export interface UsageRow {
  key: string;
  name: string;
  orderPos: number;
  units: number;
  /** Dollars, summed in exact micro-dollars (a float sum of cents drifts). */
  cost: number;
  /** Share of the month's cost, 0 to 100. */
  percent: number;
  color: string;
  /** What a unit is (image, call, minute); null for an endpoint outside the catalog. */
  unit: BillingUnit | null;
}

/** The table of total usage by feature, orderPos descending, with the share of the total cost. */
export function buildUsageRows(
  statistics: readonly StatisticsRecord[],
  endpoints: readonly EndpointDescriptor[],
): UsageRow[] {
  const descriptors = descriptorMap(endpoints);
  const rows = new Map<string, UsageRow>();
  const costMicros = new Map<string, bigint>();
  for (const record of statistics) {
    const key = featureKey(record);
    const descriptor = descriptors.get(key);
    const row = rows.get(key) ?? {
      key,
      name: descriptor?.name ?? record.callType,
      orderPos: descriptor?.orderPos ?? Number.NEGATIVE_INFINITY,
      units: 0,
      cost: 0,
      percent: 0,
      color: featureColor(key),
      unit: featureByEndpoint(record.endpoint)?.billing.unit ?? null,
    };
    const micros = (costMicros.get(key) ?? 0n) + usdToMicros(record.balanceUsed);
    costMicros.set(key, micros);
    row.units += record.unitsUsed;
    row.cost = microsToUsd(micros);
    rows.set(key, row);
  }
  const list = [...rows.values()].filter((row) => row.units > 0 || row.cost > 0);
  const total = Number(list.reduce((sum, row) => sum + (costMicros.get(row.key) ?? 0n), 0n));
  for (const row of list) {
    row.percent = total > 0 ? (Number(costMicros.get(row.key) ?? 0n) / total) * 100 : 0;
  }
  return list.sort((a, b) => b.orderPos - a.orderPos || a.name.localeCompare(b.name));
}

export function totalCost(rows: readonly UsageRow[]): number {
  return microsToUsd(rows.reduce((sum, row) => sum + usdToMicros(row.cost), 0n));
}

/**
 * The pie's slices: the features above 1 percent of the cost; when fewer than 4 qualify, the
 * top 4 by cost instead. Largest first, each in its feature's colour.
 */
export function pieSlices(rows: readonly UsageRow[]): { name: string; value: number; color: string }[] {
  const byCost = rows.filter((row) => row.cost > 0).sort((a, b) => b.cost - a.cost);
  const above = byCost.filter((row) => row.percent > PIE_MIN_PERCENT);
  const chosen = above.length >= PIE_MIN_SLICES ? above : byCost.slice(0, PIE_MIN_SLICES);
  return chosen.map((row) => ({
    name: row.name,
    value: row.cost,
    color: row.color,
  }));
}

/**
 * The pie's slice outline: it separates slices, but around a single feature's full disc it would only
 * draw a seam from the centre to the edge.
 */
export function pieStrokeWidth(sliceCount: number): number {
  return sliceCount > 1 ? 1 : 0;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export interface DailySeries {
  data: Record<string, number | string>[];
  series: { name: string; label: string; color: string }[];
  /**
   * What the bars measure: the cost in dollars when features are stacked (calls, images and audio
   * minutes do not add up on one axis), or one feature's units, named by `unit`.
   */
  measure: "cost" | "units";
  /** The chosen feature's billing unit when the bars are its units (null outside the catalog). */
  unit: BillingUnit | null;
}

/**
 * Usage per day of the month, one stacked series per feature: the cost of every feature in dollars,
 * or, when one feature is chosen, its units (images, calls, minutes). Series are named s0, s1...
 * because chart data keys must not contain path characters.
 */
export function buildDailySeries(
  statistics: readonly StatisticsRecord[],
  options: readonly FeatureOption[],
  filter: string,
  year: number,
  month: number,
): DailySeries {
  const measure = filter === ALL_FEATURES_VALUE ? "cost" : "units";
  const features = options.filter(
    (option) =>
      option.value !== ALL_FEATURES_VALUE && (filter === ALL_FEATURES_VALUE || option.value === filter),
  );
  const seriesKey = new Map(features.map((option, index) => [option.value, `s${index}`]));
  const days = daysInMonth(year, month);
  const data: Record<string, number | string>[] = [];
  for (let day = 1; day <= days; day += 1) {
    const row: Record<string, number | string> = { day: String(day).padStart(2, "0") };
    for (const key of seriesKey.values()) row[key] = 0;
    data.push(row);
  }
  // Costs are summed in exact micro-dollars, then turned into dollars once.
  const costMicros = new Map<string, bigint>();
  let unit: BillingUnit | null = null;
  for (const record of statistics) {
    const key = seriesKey.get(featureKey(record));
    if (!key) continue;
    const day = Number(record.recordDate.slice(8, 10));
    const row = data[day - 1];
    if (!row) continue;
    if (measure === "units") {
      unit = featureByEndpoint(record.endpoint)?.billing.unit ?? null;
      row[key] = Number(row[key] ?? 0) + record.unitsUsed;
    } else {
      const cell = `${day}:${key}`;
      const micros = (costMicros.get(cell) ?? 0n) + usdToMicros(record.balanceUsed);
      costMicros.set(cell, micros);
      row[key] = microsToUsd(micros);
    }
  }
  return {
    data,
    series: features.map((option) => ({
      name: seriesKey.get(option.value) ?? option.value,
      label: option.label,
      color: featureColor(option.value),
    })),
    measure,
    unit,
  };
}

/** The chart's subtitle: what one bar measures, in the month's words. */
export function dailySeriesCaption(
  series: Pick<DailySeries, "measure" | "unit">,
  monthTitle: string,
): string {
  if (series.measure === "cost") return `Cost per day of ${monthTitle}, by feature`;
  const unitName = series.unit ? BILLING_UNIT_NAMES[series.unit].other : "units";
  return `${unitName.charAt(0).toUpperCase()}${unitName.slice(1)} per day of ${monthTitle}`;
}

export interface YearMonth {
  year: number;
  /** 1 to 12. */
  month: number;
}

export function shiftMonth({ year, month }: YearMonth, delta: number): YearMonth {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** "2026-11": a month as the statistics query and the CSV exports name it. */
export function formatYearMonth({ year, month }: YearMonth): string {
  return `${year}-${String(month).padStart(2, "0")}`;
}

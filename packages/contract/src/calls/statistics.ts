import { z } from "zod";
import { defineCall } from "../define-call";
import { endpointDescriptorSchema, statisticsRecordSchema } from "../entities";
import { idSchema, isoDateTimeSchema } from "../fields";
import { STATISTICS_TIMEOUT_MS } from "../limits";

/** Usage statistics of the home page. */

/**
 * The instant the client sends for a month: its first day at midnight UTC. Computing it in UTC matters:
 * local midnight east of Greenwich falls in the previous month.
 */
export function statisticsQueryDate(year: number, month: number): string {
  return new Date(Date.UTC(year, month - 1, 1)).toISOString();
}

function isFirstOfMonthUtc(value: string): boolean {
  const date = new Date(value);
  return (
    date.getUTCDate() === 1 &&
    date.getUTCHours() === 0 &&
    date.getUTCMinutes() === 0 &&
    date.getUTCSeconds() === 0 &&
    date.getUTCMilliseconds() === 0
  );
}

export const getStatisticsRequest = z.object({
  /** The projects to sum; the server keeps only those the caller may see. */
  projectIds: z.array(idSchema).max(1_000),
  queryDate: isoDateTimeSchema.refine(
    isFirstOfMonthUtc,
    "queryDate must be the first of a month at 00:00 UTC.",
  ),
});
export const getStatisticsResponse = z.object({
  /** One record per project-independent (endpoint, call type, day) of the month, summed over the projects. */
  statistics: z.array(statisticsRecordSchema),
  endpoints: z.array(endpointDescriptorSchema),
});
export const getStatisticsCall = defineCall({
  path: "/v1/users/statistics/get",
  auth: "session",
  access: { scope: "visible-projects" },
  request: getStatisticsRequest,
  response: getStatisticsResponse,
  timeoutMs: STATISTICS_TIMEOUT_MS,
});

export const statisticsCalls = {
  get: getStatisticsCall,
} as const;

export type GetStatisticsRequest = z.infer<typeof getStatisticsRequest>;
export type GetStatisticsResponse = z.infer<typeof getStatisticsResponse>;

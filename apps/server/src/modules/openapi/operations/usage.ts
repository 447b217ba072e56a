import {
  backgroundRemovalFeature,
  microsToUsd,
  PLAYGROUND_CALLER,
  USAGE_GROUPS,
  USAGE_MAX_DAYS,
  USAGE_PATH,
  type UsageResponse,
} from "@prism/contract";
import { errorRefs } from "../errors";
import { TAGS } from "../tags";
import { type JsonObject, SECURITY_SCHEME } from "../types";

/** The key's project's usage over a range of UTC days, grouped, from the daily rollup. */
export function usageOperation(baseUrl: string): JsonObject {
  const example: UsageResponse = {
    start: "2026-05-01",
    end: "2026-05-31",
    group_by: "feature",
    buckets: [
      {
        key: backgroundRemovalFeature.endpoint,
        name: backgroundRemovalFeature.name,
        calls: 120,
        units: 120,
        cost: microsToUsd(BigInt(backgroundRemovalFeature.billing.defaultPriceMicros) * 120n),
      },
    ],
  };
  return {
    operationId: "getUsage",
    summary: "Get usage",
    description: [
      "The API key's project's calls, units and cost in dollars from `start` to `end` (UTC days, both",
      `included, at most ${USAGE_MAX_DAYS} days), one bucket per \`group_by\`: \`day\`, \`feature\``,
      "(the endpoint), `project`, or `api_key` (each key by name; calls made in the console are",
      `\`${PLAYGROUND_CALLER}\` with a null \`key\`). Only charged calls count: a refunded call is in no bucket.`,
    ].join("\n"),
    tags: [TAGS.usage.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      { name: "start", in: "query", required: true, schema: { type: "string", format: "date" } },
      { name: "end", in: "query", required: true, schema: { type: "string", format: "date" } },
      { name: "group_by", in: "query", required: true, schema: { type: "string", enum: [...USAGE_GROUPS] } },
    ],
    responses: {
      "200": {
        description: "The buckets, in order of their key.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Usage" }, example } },
      },
      ...errorRefs([400, 401, 429]),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "${baseUrl}${USAGE_PATH}?start=2026-05-01&end=2026-05-31&group_by=day" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}

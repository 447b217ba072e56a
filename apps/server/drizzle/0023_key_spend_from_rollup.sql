CREATE INDEX "feature_requests_organization_unsuccessful_idx" ON "feature_requests" USING btree ("organization_id","status","created_at","id") WHERE "feature_requests"."status" in ('error', 'canceled');--> statement-breakpoint
CREATE INDEX "feature_requests_open_key_idx" ON "feature_requests" USING btree ("api_key_id","created_at") WHERE "feature_requests"."status" in ('queued', 'generating');--> statement-breakpoint
CREATE INDEX "usage_daily_keys_api_key_idx" ON "usage_daily_keys" USING btree ("api_key_id","day");--> statement-breakpoint
-- Decision 022: a settled call counts in the rollups on the UTC day it was made (created_at), the day
-- its key's monthly cap charged it, no longer the day it settled. Calls that settled on a later day
-- than they were made move from their settlement day's rows to their creation day's.
CREATE TEMPORARY TABLE "rollup_moves" AS
  SELECT "project_id", "api_key_id", "endpoint", "call_type",
    ("completed_at" AT TIME ZONE 'UTC')::date AS "settled_day", ("created_at" AT TIME ZONE 'UTC')::date AS "made_day",
    sum("units")::bigint AS "units", sum("price_micros")::bigint AS "cost_micros", count(*)::integer AS "calls"
  FROM "feature_requests"
  WHERE "status" = 'done' AND "completed_at" IS NOT NULL
    AND ("completed_at" AT TIME ZONE 'UTC')::date <> ("created_at" AT TIME ZONE 'UTC')::date
  GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
UPDATE "usage_daily" SET "units" = "usage_daily"."units" - moved."units",
    "cost_micros" = "usage_daily"."cost_micros" - moved."cost_micros", "calls" = "usage_daily"."calls" - moved."calls"
  FROM (SELECT "project_id", "endpoint", "call_type", "settled_day", sum("units") AS "units",
      sum("cost_micros") AS "cost_micros", sum("calls") AS "calls"
    FROM "rollup_moves" GROUP BY 1, 2, 3, 4) moved
  WHERE "usage_daily"."project_id" = moved."project_id" AND "usage_daily"."endpoint" = moved."endpoint"
    AND "usage_daily"."call_type" = moved."call_type" AND "usage_daily"."day" = moved."settled_day";--> statement-breakpoint
INSERT INTO "usage_daily" ("project_id", "endpoint", "call_type", "day", "units", "cost_micros", "calls")
  SELECT "project_id", "endpoint", "call_type", "made_day", sum("units"), sum("cost_micros"), sum("calls")
  FROM "rollup_moves" GROUP BY 1, 2, 3, 4
  ON CONFLICT ("project_id", "endpoint", "call_type", "day") DO UPDATE SET
    "units" = "usage_daily"."units" + excluded."units", "cost_micros" = "usage_daily"."cost_micros" + excluded."cost_micros",
    "calls" = "usage_daily"."calls" + excluded."calls";--> statement-breakpoint
UPDATE "usage_daily_keys" SET "units" = "usage_daily_keys"."units" - moved."units",
    "cost_micros" = "usage_daily_keys"."cost_micros" - moved."cost_micros", "calls" = "usage_daily_keys"."calls" - moved."calls"
  FROM (SELECT "project_id", "api_key_id", "settled_day", sum("units") AS "units",
      sum("cost_micros") AS "cost_micros", sum("calls") AS "calls"
    FROM "rollup_moves" WHERE "api_key_id" IS NOT NULL GROUP BY 1, 2, 3) moved
  WHERE "usage_daily_keys"."project_id" = moved."project_id" AND "usage_daily_keys"."api_key_id" = moved."api_key_id"
    AND "usage_daily_keys"."day" = moved."settled_day";--> statement-breakpoint
INSERT INTO "usage_daily_keys" ("project_id", "api_key_id", "day", "units", "cost_micros", "calls")
  SELECT "project_id", "api_key_id", "made_day", sum("units"), sum("cost_micros"), sum("calls")
  FROM "rollup_moves" WHERE "api_key_id" IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT ("project_id", "day", "api_key_id") DO UPDATE SET
    "units" = "usage_daily_keys"."units" + excluded."units",
    "cost_micros" = "usage_daily_keys"."cost_micros" + excluded."cost_micros",
    "calls" = "usage_daily_keys"."calls" + excluded."calls";--> statement-breakpoint
DROP TABLE "rollup_moves";

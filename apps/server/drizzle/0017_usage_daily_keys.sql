CREATE TABLE "usage_daily_keys" (
	"project_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"units" bigint NOT NULL,
	"cost_micros" bigint NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "usage_daily_keys_project_id_day_api_key_id_pk" PRIMARY KEY("project_id","day","api_key_id")
);
--> statement-breakpoint
ALTER TABLE "usage_daily_keys" ADD CONSTRAINT "usage_daily_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily_keys" ADD CONSTRAINT "usage_daily_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The calls settled before this release, from the request log: every call settled with a key, on the
-- UTC day it settled, which is the day the settling statement writes (a `done` row without a
-- completion time, which the pipeline never leaves, counts on the day it was made). Refunded calls are
-- `error` and so left out, as a refund takes its call out of the rollup.
INSERT INTO "usage_daily_keys" ("project_id", "api_key_id", "day", "units", "cost_micros", "calls")
SELECT "project_id", "api_key_id", (coalesce("completed_at", "created_at") AT TIME ZONE 'UTC')::date,
  sum("units")::bigint, sum("price_micros")::bigint, count(*)::int
FROM "feature_requests"
WHERE "status" = 'done' AND "api_key_id" IS NOT NULL
GROUP BY 1, 2, 3;

ALTER TABLE "audit_log" ADD COLUMN "actor_name" text;--> statement-breakpoint
-- Custom SQL (not generated).
-- Backfill: entries written before this column existed get the actor's name as it is now, the best
-- record there is of who made them. The append-only trigger is set aside for this one update only.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_append_only";--> statement-breakpoint
UPDATE "audit_log" SET "actor_name" = trim("users"."first_name" || ' ' || "users"."last_name")
  FROM "users" WHERE "users"."id" = "audit_log"."actor_user_id";--> statement-breakpoint
UPDATE "audit_log" SET "actor_name" = "api_keys"."name"
  FROM "api_keys" WHERE "api_keys"."id" = "audit_log"."actor_api_key_id";--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_append_only";--> statement-breakpoint
-- Whether an organization's monthly budget stops calls now: its hard stop is on and this UTC month's
-- settled spend (the rollup) plus the price of its calls still in flight is at or above the budget.
-- VOLATILE plpgsql on purpose: each query inside takes a fresh snapshot, so when the reservation's
-- update of the organization's row waited for a concurrent reservation and re-checks its conditions
-- on the newest row, this sees that reservation's request row too. A subquery of the statement itself
-- would read the snapshot taken before the wait, and concurrent calls would all pass the budget.
CREATE OR REPLACE FUNCTION "prism_budget_reached"(organization uuid, first_day date, next_first_day date)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  budget bigint;
  settled bigint;
  in_flight bigint;
BEGIN
  SELECT "monthly_budget_micros" INTO budget FROM "alert_settings"
    WHERE "organization_id" = organization AND "budget_hard_stop" AND "monthly_budget_micros" IS NOT NULL;
  IF budget IS NULL THEN
    RETURN false;
  END IF;
  SELECT coalesce(sum("usage_daily"."cost_micros"), 0) INTO settled
    FROM "usage_daily" INNER JOIN "projects" ON "projects"."id" = "usage_daily"."project_id"
    WHERE "projects"."organization_id" = organization
      AND "usage_daily"."day" >= first_day AND "usage_daily"."day" < next_first_day;
  -- A queued call (the durable queue's status) holds its reservation as a running one does.
  SELECT coalesce(sum("price_micros"), 0) INTO in_flight FROM "feature_requests"
    WHERE "organization_id" = organization AND "status" IN ('queued', 'generating');
  RETURN budget <= settled + in_flight;
END
$$;
--> statement-breakpoint
-- Removing a member (or their leaving) now revokes the API keys they created. Keys of people who left
-- before that still work: they are revoked here, each with an audit entry written as the system's.
WITH "revoked" AS (
  UPDATE "api_keys" SET "revoked_at" = now()
  WHERE "revoked_at" IS NULL AND "created_by_user_id" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "organization_members"
      WHERE "organization_members"."organization_id" = "api_keys"."organization_id"
        AND "organization_members"."user_id" = "api_keys"."created_by_user_id")
  RETURNING "id", "organization_id", "name", "last_four", "project_id")
INSERT INTO "audit_log" ("organization_id", "action", "target_type", "target_id", "changes")
SELECT "organization_id", 'api-key.revoked-with-member', 'api-key', "id"::text,
  jsonb_build_object('before', jsonb_build_object('name', "name", 'lastFour', "last_four", 'projectId', "project_id"))
FROM "revoked";

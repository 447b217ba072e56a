ALTER TABLE "organizations" ADD COLUMN "calls_in_flight" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "organizations" SET "calls_in_flight" = (
  SELECT count(*)::int FROM "feature_requests"
  WHERE "feature_requests"."organization_id" = "organizations"."id" AND "feature_requests"."status" = 'generating'
);--> statement-breakpoint
-- Aborts the statement that calls it with the given reason (SQLSTATE P0001): a single-statement money
-- operation calls it when a write it already made must not stand (the whole statement rolls back).
CREATE OR REPLACE FUNCTION "prism_refuse"(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason;
END
$$;

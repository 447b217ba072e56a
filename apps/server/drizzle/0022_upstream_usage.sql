ALTER TABLE "feature_requests" ADD COLUMN "upstream_cost_micros" bigint;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "upstream_compute_ms" integer;
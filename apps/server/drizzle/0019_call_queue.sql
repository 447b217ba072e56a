CREATE TABLE "call_webhook_secrets" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_slots" (
	"pool" text NOT NULL,
	"owner" text NOT NULL,
	"slot" integer NOT NULL,
	"request_id" uuid,
	"lease_until" timestamp with time zone,
	CONSTRAINT "provider_slots_pool_owner_slot_pk" PRIMARY KEY("pool","owner","slot")
);
--> statement-breakpoint
DROP INDEX "feature_requests_generating_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "endpoint_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "identity_request_id" uuid;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "queue" text;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "queue_tag" bigint;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "runner" text;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "webhook_url" text;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "webhook_events" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "call_webhook_secrets" ADD CONSTRAINT "call_webhook_secrets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_slots_request_idx" ON "provider_slots" USING btree ("request_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_request_id_feature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."feature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_requests_open_idx" ON "feature_requests" USING btree ("created_at") WHERE "feature_requests"."status" in ('queued', 'generating');--> statement-breakpoint
CREATE INDEX "feature_requests_queue_idx" ON "feature_requests" USING btree ("queue","queue_tag","created_at","id") WHERE "feature_requests"."status" = 'queued' and "feature_requests"."queue_tag" is not null;--> statement-breakpoint
CREATE INDEX "feature_requests_queue_organization_idx" ON "feature_requests" USING btree ("queue","organization_id","queue_tag") WHERE "feature_requests"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_request_idx" ON "webhook_deliveries" USING btree ("request_id") WHERE "webhook_deliveries"."request_id" is not null;
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_endpoints" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_spend_cap_micros" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "lifetime_spend_cap_micros" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "requests_per_minute" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_month" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_month_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_lifetime_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD COLUMN "client_ip" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "feature_requests_api_key_idx" ON "feature_requests" USING btree ("api_key_id","created_at");
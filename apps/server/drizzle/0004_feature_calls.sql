CREATE TABLE "feature_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid,
	"api_key_id" uuid,
	"endpoint" text NOT NULL,
	"call_type" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"request_files" jsonb NOT NULL,
	"request_body" jsonb NOT NULL,
	"response_file" text,
	"response_body" jsonb,
	"units" integer NOT NULL,
	"price_micros" bigint NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"project_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"call_type" text NOT NULL,
	"day" date NOT NULL,
	"units" bigint NOT NULL,
	"cost_micros" bigint NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "usage_daily_project_id_endpoint_call_type_day_pk" PRIMARY KEY("project_id","endpoint","call_type","day")
);
--> statement-breakpoint
ALTER TABLE "feature_requests" ADD CONSTRAINT "feature_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD CONSTRAINT "feature_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD CONSTRAINT "feature_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_requests" ADD CONSTRAINT "feature_requests_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_requests_history_idx" ON "feature_requests" USING btree ("project_id","endpoint","created_at","id");--> statement-breakpoint
CREATE INDEX "feature_requests_generating_idx" ON "feature_requests" USING btree ("created_at") WHERE "feature_requests"."status" = 'generating';
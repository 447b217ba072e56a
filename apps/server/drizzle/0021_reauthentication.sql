ALTER TABLE "passkeys" ADD COLUMN "removal_token_hash" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "reauthenticated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_removal_token_hash_unique" ON "passkeys" USING btree ("removal_token_hash");
-- Sign-up codes issued before codes were bound to an attempt belong to no browser; they are dropped.
DELETE FROM "verification_codes" WHERE "purpose" = 'verify-email';--> statement-breakpoint
DROP INDEX "verification_codes_user_purpose_unique";--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "attempt_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "first_name" text;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "last_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "verification_codes_user_purpose_attempt_unique" ON "verification_codes" USING btree ("user_id","purpose","attempt_hash");
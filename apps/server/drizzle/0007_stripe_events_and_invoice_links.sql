CREATE TABLE "invoice_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_payment_id_unique";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "kind" text DEFAULT 'invoice' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "reference" text;--> statement-breakpoint
-- Invoices issued so far are one per payment, under the payment's ledger reference.
UPDATE "invoices" SET "reference" = 'payment:' || "payment_id";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_links" ADD CONSTRAINT "invoice_links_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_links_expires_at_idx" ON "invoice_links" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_reference_unique" ON "invoices" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "invoices_payment_id_idx" ON "invoices" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "link_token_hash";--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "link_expires_at";
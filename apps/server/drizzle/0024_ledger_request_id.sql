-- Decision 022, "The ledger's storage": a feature call's entries name the call by its id (a uuid)
-- instead of the text 'request:<uuid>', with their own unique index; other entries keep their text
-- reference. The surrogate id (its primary key was never read) and the (organization_id, created_at)
-- index go; the organization alone stays indexed. The old indexes go first, so that the one rewrite
-- below does not rebuild them.
DROP INDEX "ledger_entries_kind_reference_unique";--> statement-breakpoint
DROP INDEX "ledger_entries_organization_id_idx";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "reference" DROP NOT NULL;--> statement-breakpoint
-- One pass over the table: setting a column's type with USING rewrites every row from its old values
-- (compacted, the dropped id's bytes reclaimed, where an UPDATE of every call's entries would leave as
-- many dead row versions), and the new check is verified on each rewritten row in the same pass. A
-- call's entry whose reference is not 'request:<uuid>' stops the migration (the cast or the check
-- fails) and leaves the ledger as it was.
ALTER TABLE "ledger_entries"
  ALTER COLUMN "request_id" SET DATA TYPE uuid USING (CASE
    WHEN "kind" IN ('reservation', 'settlement', 'refund') AND starts_with("reference", 'request:')
    THEN substr("reference", 9)::uuid END),
  ALTER COLUMN "reference" SET DATA TYPE text USING (CASE
    WHEN "kind" IN ('reservation', 'settlement', 'refund') AND starts_with("reference", 'request:')
    THEN NULL ELSE "reference" END),
  ADD CONSTRAINT "ledger_entries_call_or_reference" CHECK (("ledger_entries"."request_id" is not null) = ("ledger_entries"."kind" in ('reservation', 'settlement', 'refund')) and ("ledger_entries"."reference" is null) = ("ledger_entries"."request_id" is not null));--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_request_kind_unique" ON "ledger_entries" USING btree ("request_id","kind") WHERE "ledger_entries"."request_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_kind_reference_unique" ON "ledger_entries" USING btree ("kind","reference") WHERE "ledger_entries"."reference" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_organization_idx" ON "ledger_entries" USING btree ("organization_id");

import { INVOICES_PAGE_SIZE } from "@prism/contract";
import { and, count, desc, eq, lt } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type InvoiceKind, invoiceLinks, invoices } from "../../db/schema";

/** Inserts a document unless one with its reference exists (issued once per ledger entry). */
export async function insertDocumentOnce(tx: Executor, values: typeof invoices.$inferInsert): Promise<void> {
  await tx.insert(invoices).values(values).onConflictDoNothing({ target: invoices.reference });
}

/** The lowest invoice number issued for a payment (credit notes excluded). */
export async function firstInvoiceNumberOfPayment(tx: Executor, paymentId: string) {
  const [row] = await tx
    .select({ number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, "invoice")))
    .orderBy(invoices.number)
    .limit(1);
  return row?.number;
}

/** One page of an organization's documents, newest first, and how many it has in all. */
export async function pageOfInvoices(db: Executor, organizationId: string, page: number) {
  const [total] = await db
    .select({ value: count() })
    .from(invoices)
    .where(eq(invoices.organizationId, organizationId));
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.organizationId, organizationId))
    .orderBy(desc(invoices.createdAt), desc(invoices.number))
    .limit(INVOICES_PAGE_SIZE)
    .offset((page - 1) * INVOICES_PAGE_SIZE);
  return { rows, total: total?.value ?? 0 };
}

export async function findInvoiceByNumber(db: Executor, input: { number: number; kind: InvoiceKind }) {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.number, input.number), eq(invoices.kind, input.kind)));
  return invoice;
}

export async function findInvoice(db: Executor, invoiceId: string) {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  return invoice;
}

/** Stores a link's token hash, dropping the links that have expired on the way. */
export async function insertInvoiceLink(db: Executor, values: typeof invoiceLinks.$inferInsert, now: Date) {
  await db.delete(invoiceLinks).where(lt(invoiceLinks.expiresAt, now));
  await db.insert(invoiceLinks).values(values);
}

/** Deletes the link with this token hash for this document and answers it (undefined: none). */
export async function spendInvoiceLink(db: Executor, input: { tokenHash: string; invoiceId: string }) {
  const [link] = await db
    .delete(invoiceLinks)
    .where(and(eq(invoiceLinks.tokenHash, input.tokenHash), eq(invoiceLinks.invoiceId, input.invoiceId)))
    .returning();
  return link;
}

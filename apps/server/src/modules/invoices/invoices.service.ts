import { createHash, randomBytes } from "node:crypto";
import { INVOICES_PAGE_SIZE, type Invoice, microsToUsd } from "@prism/contract";
import { and, count, desc, eq, gt } from "drizzle-orm";
import type { Database } from "../../db/client";
import { invoices, payments } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid, requireMembership, requirePermission } from "../access/access.service";
import { type InvoiceDocument, renderInvoicePdf } from "./invoice-pdf";

/** Links to the PDF are valid this long: enough to open, too short to leak usefully. */
const LINK_TTL_MS = 5 * 60_000;
const INVOICE_NOT_FOUND = "Invoice not found.";

export function formatInvoiceNumber(number: number): string {
  return `INV-${String(number).padStart(6, "0")}`;
}

function parseInvoiceNumber(invoiceId: string): number | undefined {
  const match = /^INV-(\d{1,12})$/i.exec(invoiceId.trim());
  return match ? Number(match[1]) : undefined;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function listInvoices(
  db: Database,
  userId: string,
  organizationId: string,
  page: number,
): Promise<{ invoices: Invoice[]; totalPages: number; currentPage: number }> {
  const membership = await requireMembership(db, userId, organizationId);
  requirePermission(membership, "organization.invoices");
  const [total] = await db
    .select({ value: count() })
    .from(invoices)
    .where(eq(invoices.organizationId, organizationId));
  const totalPages = Math.ceil((total?.value ?? 0) / INVOICES_PAGE_SIZE);
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.organizationId, organizationId))
    .orderBy(desc(invoices.createdAt), desc(invoices.number))
    .limit(INVOICES_PAGE_SIZE)
    .offset((page - 1) * INVOICES_PAGE_SIZE);
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      invoiceId: formatInvoiceNumber(row.number),
      amount: microsToUsd(row.amountMicros),
      createdAt: row.createdAt.toISOString(),
    })),
    totalPages,
    currentPage: page,
  };
}

/**
 * A short-lived link to the invoice: Stripe's hosted receipt when the payment went through Stripe,
 * otherwise our own PDF behind a one-time random token (only its hash is stored).
 */
export async function createInvoiceLink(db: Database, userId: string, invoiceId: string): Promise<string> {
  const number = parseInvoiceNumber(invoiceId);
  if (number === undefined) throw new AppError("not-found", INVOICE_NOT_FOUND);
  const [row] = await db
    .select({ invoice: invoices, receiptUrl: payments.receiptUrl })
    .from(invoices)
    .innerJoin(payments, eq(payments.id, invoices.paymentId))
    .where(eq(invoices.number, number));
  if (!row) throw new AppError("not-found", INVOICE_NOT_FOUND);
  const membership = await requireMembership(db, userId, row.invoice.organizationId).catch(() => {
    throw new AppError("not-found", INVOICE_NOT_FOUND);
  });
  requirePermission(membership, "organization.invoices");
  if (row.receiptUrl) return row.receiptUrl;
  const token = randomBytes(24).toString("base64url");
  await db
    .update(invoices)
    .set({ linkTokenHash: hashToken(token), linkExpiresAt: new Date(Date.now() + LINK_TTL_MS) })
    .where(eq(invoices.id, row.invoice.id));
  return `/v1/invoices/${row.invoice.id}/pdf?token=${token}`;
}

export async function renderInvoiceForToken(
  db: Database,
  invoiceId: string,
  token: string,
): Promise<{ number: string; pdf: Buffer }> {
  if (!isUuid(invoiceId) || token === "") throw new AppError("not-found", INVOICE_NOT_FOUND);
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.id, invoiceId),
        eq(invoices.linkTokenHash, hashToken(token)),
        gt(invoices.linkExpiresAt, new Date()),
      ),
    );
  if (!invoice)
    throw new AppError(
      "not-found",
      "This invoice link has expired. Please open the invoice again from the console.",
    );
  const number = formatInvoiceNumber(invoice.number);
  const pdf = await renderInvoicePdf({
    number,
    issuedAt: invoice.createdAt,
    amountUsd: microsToUsd(invoice.amountMicros),
    billing: invoice.billing as InvoiceDocument["billing"],
  });
  return { number, pdf };
}

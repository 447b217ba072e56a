import { createHash, randomBytes } from "node:crypto";
import {
  INVOICE_LINK_EXPIRED,
  INVOICE_LINK_TTL_MINUTES,
  INVOICES_PAGE_SIZE,
  type Invoice,
  microsToUsd,
} from "@prism/contract";
import type { SellerDetails } from "../../config";
import type { Database, Executor } from "../../db/client";
import type { InvoiceKind, organizations, payments } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid, refuseAsNotFound, requireMembership, requirePermission } from "../access/access.service";
import { type InvoiceSnapshot, renderInvoicePdf } from "./invoice-pdf";
import {
  findInvoice,
  findInvoiceByNumber,
  firstInvoiceNumberOfPayment,
  insertDocumentOnce,
  insertInvoiceLink,
  pageOfInvoices,
  spendInvoiceLink,
} from "./invoices.store";

const LINK_TTL_MS = INVOICE_LINK_TTL_MINUTES * 60_000;
const INVOICE_NOT_FOUND = "Invoice not found.";

/** Invoices and credit notes share one sequence; the prefix tells them apart. */
const PREFIX_OF: Record<InvoiceKind, string> = { invoice: "INV", "credit-note": "CN" };

export function formatInvoiceNumber(number: number, kind: InvoiceKind = "invoice"): string {
  return `${PREFIX_OF[kind]}-${String(number).padStart(6, "0")}`;
}

function parseInvoiceNumber(invoiceId: string): { number: number; kind: InvoiceKind } | undefined {
  const match = /^(INV|CN)-(\d{1,12})$/i.exec(invoiceId.trim());
  if (!match) return undefined;
  return { number: Number(match[2]), kind: match[1]?.toUpperCase() === "CN" ? "credit-note" : "invoice" };
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Issues an invoice (money in) or a credit note (money taken back, a negative amount) for one ledger
 * entry, inside the transaction that writes the entry: `reference` is the entry's, unique, so a
 * document is issued exactly once however often the event that caused it is delivered.
 */
export async function issueDocument(
  tx: Executor,
  input: {
    kind: InvoiceKind;
    reference: string;
    organization: typeof organizations.$inferSelect;
    payment: typeof payments.$inferSelect;
    amountMicros: bigint;
    description: string;
    seller: SellerDetails;
    /** The invoice a credit note or a reinstatement refers to. */
    relatedInvoice?: string | undefined;
  },
): Promise<void> {
  const { organization, payment } = input;
  const snapshot: InvoiceSnapshot = {
    billingName: organization.billingName,
    billingEmail: organization.billingEmail,
    taxId: organization.taxId,
    address: organization.address,
    city: organization.city,
    state: organization.state,
    zipCode: organization.zipCode,
    country: organization.country,
    organizationName: organization.name,
    cardBrand: payment.cardBrand,
    cardLast4: payment.cardLast4,
    seller: input.seller,
    description: input.description,
    ...(input.relatedInvoice ? { relatedInvoice: input.relatedInvoice } : {}),
  };
  await insertDocumentOnce(tx, {
    kind: input.kind,
    reference: input.reference,
    organizationId: organization.id,
    paymentId: payment.id,
    amountMicros: input.amountMicros,
    billing: snapshot,
  });
}

/** The number of the invoice issued for a payment, for the credit notes that refer to it. */
export async function invoiceNumberOfPayment(tx: Executor, paymentId: string): Promise<string | undefined> {
  const number = await firstInvoiceNumberOfPayment(tx, paymentId);
  return number === undefined ? undefined : formatInvoiceNumber(number);
}

export async function listInvoices(
  db: Database,
  /** One whose `organization.invoices` right the caller holds (the call's declared access). */
  organizationId: string,
  page: number,
): Promise<{ invoices: Invoice[]; totalPages: number; currentPage: number }> {
  const { rows, total } = await pageOfInvoices(db, organizationId, page);
  const totalPages = Math.ceil(total / INVOICES_PAGE_SIZE);
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      invoiceId: formatInvoiceNumber(row.number, row.kind),
      amount: microsToUsd(row.amountMicros),
      createdAt: row.createdAt.toISOString(),
    })),
    totalPages,
    currentPage: page,
  };
}

/**
 * A link to the document's PDF behind a random token that works once and for five minutes; only
 * the token's hash is stored. The token rides in the query string, which the request log redacts.
 */
export async function createInvoiceLink(db: Database, userId: string, invoiceId: string): Promise<string> {
  const parsed = parseInvoiceNumber(invoiceId);
  if (parsed === undefined) throw new AppError("not-found", INVOICE_NOT_FOUND);
  const invoice = await findInvoiceByNumber(db, parsed);
  if (!invoice) throw new AppError("not-found", INVOICE_NOT_FOUND);
  const membership = await requireMembership(db, userId, invoice.organizationId).catch(
    refuseAsNotFound(new AppError("not-found", INVOICE_NOT_FOUND)),
  );
  requirePermission(membership, "organization.invoices");
  const token = randomBytes(24).toString("base64url");
  const now = new Date();
  await insertInvoiceLink(
    db,
    { tokenHash: hashToken(token), invoiceId: invoice.id, expiresAt: new Date(now.getTime() + LINK_TTL_MS) },
    now,
  );
  return `/v1/invoices/${invoice.id}/pdf?token=${token}`;
}

/** Spends the link (deleting it, so a second open fails) and renders its document. */
export async function renderInvoiceForToken(
  db: Database,
  invoiceId: string,
  token: string,
  currentSeller: SellerDetails,
): Promise<{ number: string; pdf: Buffer }> {
  if (!isUuid(invoiceId) || token === "") throw new AppError("not-found", INVOICE_LINK_EXPIRED);
  const link = await spendInvoiceLink(db, { tokenHash: hashToken(token), invoiceId });
  if (!link || link.expiresAt.getTime() <= Date.now()) throw new AppError("not-found", INVOICE_LINK_EXPIRED);
  const invoice = await findInvoice(db, invoiceId);
  if (!invoice) throw new AppError("not-found", INVOICE_LINK_EXPIRED);
  const number = formatInvoiceNumber(invoice.number, invoice.kind);
  const pdf = await renderInvoicePdf({
    kind: invoice.kind,
    number,
    issuedAt: invoice.createdAt,
    amountMicros: invoice.amountMicros,
    snapshot: invoice.billing,
    currentSeller,
  });
  return { number, pdf };
}

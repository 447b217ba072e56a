import { BALANCE_DECIMALS, cardBrandLabel, formatMicros, PRODUCT_NAME } from "@prism/contract";
import type { SellerDetails } from "../../config";
import type { InvoiceSnapshot } from "../../db/json-columns";
import type { InvoiceKind } from "../../db/schema";

export type { InvoiceSnapshot };

export interface InvoiceDocument {
  kind: InvoiceKind;
  number: string;
  issuedAt: Date;
  /** Negative for a credit note. */
  amountMicros: bigint;
  snapshot: InvoiceSnapshot;
  /** Printed when the snapshot has no seller. */
  currentSeller: SellerDetails;
}

const INK = "#1f2330";
const MUTED = "#6b7085";
const ACCENT = "#4c3bcf";
const LEFT = 56;
const WIDTH = 483;

/** "$1,234.50 USD" / "-$3.00 USD": rounded on the exact micro-dollars, as every other amount shown. */
function money(micros: bigint): string {
  return `${formatMicros(micros, BALANCE_DECIMALS)} USD`;
}

function issueDate(date: Date): string {
  return date.toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * Renders an invoice or credit note as a one-page A4 PDF with pdfkit's built-in Helvetica (no font
 * files needed): the seller with its address and tax id, the buyer's billing details, the line, the
 * total and the card it was paid with or returned to.
 */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  // pdfkit and its font tables are among the heaviest modules of the server: loaded with the first
  // invoice, not at start-up (issue 16).
  const { default: PDFDocument } = await import("pdfkit");
  return new Promise((resolve, reject) => {
    const isCreditNote = document.kind === "credit-note";
    const title = isCreditNote ? "Credit note" : "Invoice";
    const seller = document.snapshot.seller ?? document.currentSeller;
    const doc = new PDFDocument({
      size: "A4",
      margin: LEFT,
      info: { Title: `${title} ${document.number}`, Author: seller.name || PRODUCT_NAME },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    const { snapshot } = document;
    doc.fillColor(ACCENT).font("Helvetica-Bold").fontSize(18).text(seller.name, LEFT, LEFT, { width: 280 });
    doc.font("Helvetica").fontSize(9).fillColor(MUTED);
    for (const line of seller.addressLines) doc.text(line, { width: 280 });
    if (seller.taxId) doc.text(`Tax ID: ${seller.taxId}`, { width: 280 });
    const sellerBottom = doc.y;

    doc.fillColor(INK).font("Helvetica-Bold").fontSize(18).text(title, LEFT, LEFT, { align: "right" });
    doc.font("Helvetica").fontSize(10).fillColor(MUTED);
    doc.text(`${title} number: ${document.number}`, { align: "right" });
    doc.text(`Date: ${issueDate(document.issuedAt)}`, { align: "right" });
    if (snapshot.relatedInvoice) doc.text(`Refers to invoice ${snapshot.relatedInvoice}`, { align: "right" });
    if (!isCreditNote)
      doc.fillColor("#1a7f37").font("Helvetica-Bold").text("Status: Paid", { align: "right" });

    doc.y = Math.max(doc.y, sellerBottom);
    doc.moveDown(2);
    doc
      .fillColor(MUTED)
      .font("Helvetica-Bold")
      .fontSize(9)
      .text(isCreditNote ? "CREDITED TO" : "BILLED TO", LEFT);
    doc.fillColor(INK).font("Helvetica").fontSize(11);
    const buyer = [
      snapshot.billingName ?? snapshot.organizationName,
      snapshot.address,
      [snapshot.city, snapshot.state, snapshot.zipCode].filter(Boolean).join(", "),
      snapshot.country,
      snapshot.taxId ? `Tax ID: ${snapshot.taxId}` : null,
      snapshot.billingEmail,
    ].filter((line): line is string => Boolean(line?.trim()));
    for (const line of buyer) doc.text(line);

    doc.moveDown(2);
    const top = doc.y;
    doc.rect(LEFT, top, WIDTH, 24).fill("#f1effd");
    doc.fillColor(INK).font("Helvetica-Bold").fontSize(10);
    doc.text("Description", LEFT + 12, top + 7);
    doc.text("Amount", LEFT, top + 7, { width: WIDTH - 12, align: "right" });
    doc.font("Helvetica").fontSize(11);
    const description = snapshot.description ?? `Prepaid balance recharge (${snapshot.organizationName})`;
    doc.text(description, LEFT + 12, top + 36, { width: 330 });
    doc.text(money(document.amountMicros), LEFT, top + 36, { width: WIDTH - 12, align: "right" });
    const lineBottom = Math.max(doc.y, top + 52) + 8;
    doc
      .moveTo(LEFT, lineBottom)
      .lineTo(LEFT + WIDTH, lineBottom)
      .strokeColor("#e6e6ef")
      .stroke();
    doc.font("Helvetica-Bold").text("Total", LEFT + 12, lineBottom + 12);
    doc.text(money(document.amountMicros), LEFT, lineBottom + 12, { width: WIDTH - 12, align: "right" });

    if (snapshot.cardBrand && snapshot.cardLast4) {
      doc.moveDown(2);
      doc.font("Helvetica").fillColor(MUTED).fontSize(10);
      const card = `${cardBrandLabel(snapshot.cardBrand)} ending in ${snapshot.cardLast4}`;
      doc.text(isCreditNote ? `Returned to ${card}.` : `Paid with ${card}.`, LEFT + 12);
    }
    doc.end();
  });
}

import PDFDocument from "pdfkit";
import { PRODUCT_NAME } from "../../providers/mail/templates";

export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  amountUsd: number;
  billing: {
    organizationName: string;
    billingName: string | null;
    billingEmail: string | null;
    taxId: string | null;
    address: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
    country: string | null;
    cardBrand: string | null;
    cardLast4: string | null;
  };
}

const INK = "#1f2330";
const MUTED = "#6b7085";
const ACCENT = "#4c3bcf";

function money(usd: number): string {
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
}

/** Renders the invoice as a one-page A4 PDF with pdfkit's built-in Helvetica (no font files needed). */
export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 56,
      info: { Title: `Invoice ${invoice.number}`, Author: PRODUCT_NAME },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    const { billing } = invoice;
    doc.fillColor(ACCENT).font("Helvetica-Bold").fontSize(22).text(PRODUCT_NAME, 56, 56);
    doc.fillColor(INK).fontSize(18).text("Invoice", 56, 56, { align: "right" });
    doc.font("Helvetica").fontSize(10).fillColor(MUTED);
    doc.text(`Invoice number: ${invoice.number}`, { align: "right" });
    doc.text(
      `Date: ${invoice.issuedAt.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}`,
      {
        align: "right",
      },
    );
    doc.fillColor("#1a7f37").font("Helvetica-Bold").text("Status: Paid", { align: "right" });

    doc.moveDown(2);
    doc.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("BILLED TO", 56);
    doc.fillColor(INK).font("Helvetica").fontSize(11);
    const lines = [
      billing.billingName ?? billing.organizationName,
      billing.address,
      [billing.city, billing.state, billing.zipCode].filter(Boolean).join(", "),
      billing.country,
      billing.taxId ? `Tax ID: ${billing.taxId}` : null,
      billing.billingEmail,
    ].filter((line): line is string => Boolean(line?.trim()));
    for (const line of lines) doc.text(line);

    doc.moveDown(2);
    const top = doc.y;
    doc.rect(56, top, 483, 24).fill("#f1effd");
    doc.fillColor(INK).font("Helvetica-Bold").fontSize(10);
    doc.text("Description", 68, top + 7);
    doc.text("Amount", 56, top + 7, { width: 471, align: "right" });
    doc.font("Helvetica").fontSize(11);
    doc.text(`Prepaid balance recharge (${billing.organizationName})`, 68, top + 36);
    doc.text(money(invoice.amountUsd), 56, top + 36, { width: 471, align: "right" });
    doc
      .moveTo(56, top + 60)
      .lineTo(539, top + 60)
      .strokeColor("#e6e6ef")
      .stroke();
    doc.font("Helvetica-Bold").text("Total", 68, top + 72);
    doc.text(money(invoice.amountUsd), 56, top + 72, { width: 471, align: "right" });

    if (billing.cardBrand && billing.cardLast4) {
      doc.moveDown(2);
      doc.font("Helvetica").fillColor(MUTED).fontSize(10);
      doc.text(`Paid with ${billing.cardBrand} ending in ${billing.cardLast4}.`, 68);
    }
    doc.end();
  });
}

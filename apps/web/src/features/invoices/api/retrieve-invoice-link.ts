import { api } from "../../../lib/api-client";

/** A short-lived address of the invoice's PDF. `invoiceId` is the invoice number ("INV-000001"). */
export async function retrieveInvoiceLink(invoiceId: string): Promise<string> {
  const { url } = await api.invoices.retrieveLink({ invoiceId });
  return url;
}

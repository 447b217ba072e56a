import { z } from "zod";
import { defineCall } from "../define-call";
import { invoiceSchema } from "../entities";
import { idSchema } from "../fields";

/** Invoices of an organization. */

export const getInvoicesRequest = z.object({
  organizationId: idSchema,
  /** 1-based. */
  page: z.number().int().min(1).default(1),
});
export const getInvoicesResponse = z.object({
  /** Newest first, one page of `INVOICES_PAGE_SIZE`. */
  invoices: z.array(invoiceSchema),
  /** 0 when there are no invoices. */
  totalPages: z.number().int().min(0),
  currentPage: z.number().int().min(1),
});
export const getInvoicesCall = defineCall({
  path: "/v1/users/invoices/get",
  auth: "session",
  access: { scope: "organization", permission: "organization.invoices" },
  request: getInvoicesRequest,
  response: getInvoicesResponse,
});

/**
 * `invoiceId` is the invoice entity's `invoiceId` (the number in the Invoice column). The call names no
 * organization, so the server checks the invoice belongs to one where the caller may see invoices.
 */
export const retrieveInvoiceLinkRequest = z.object({
  invoiceId: idSchema,
});
/** An absolute or same-origin address the client opens in a new tab. */
export const retrieveInvoiceLinkResponse = z.object({
  url: z.string().min(1),
});
export const retrieveInvoiceLinkCall = defineCall({
  path: "/v1/users/invoices/retrieve-link",
  auth: "session",
  access: { scope: "record", idField: "invoiceId", permission: "organization.invoices" },
  request: retrieveInvoiceLinkRequest,
  response: retrieveInvoiceLinkResponse,
});

export const invoiceCalls = {
  get: getInvoicesCall,
  retrieveLink: retrieveInvoiceLinkCall,
} as const;

export type GetInvoicesRequest = z.infer<typeof getInvoicesRequest>;
export type GetInvoicesResponse = z.infer<typeof getInvoicesResponse>;
export type RetrieveInvoiceLinkRequest = z.infer<typeof retrieveInvoiceLinkRequest>;
export type RetrieveInvoiceLinkResponse = z.infer<typeof retrieveInvoiceLinkResponse>;

import { calls, INVOICES_PAGE_PATH } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { registerCall } from "../../http/register-call";
import { invoiceLinkExpiredPage } from "./invoice-link-expired-page";
import { createInvoiceLink, listInvoices, renderInvoiceForToken } from "./invoices.service";

/** What these routes use of the application's dependencies. */
export type InvoicesRouteDeps = Pick<AppDependencies, "config" | "database">;

/** Whether the request comes from a browser tab (a navigation asks for HTML first). */
function acceptsHtml(accept: string | undefined): boolean {
  return accept?.split(",").some((type) => type.trim().startsWith("text/html")) ?? false;
}

export function registerInvoiceRoutes(app: FastifyInstance, deps: InvoicesRouteDeps): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.invoices.get, ({ body }) => listInvoices(db, body.organizationId, body.page));

  registerCall(app, deps, calls.invoices.retrieveLink, async ({ user, body }) => ({
    url: await createInvoiceLink(db, user.userId, body.invoiceId),
  }));

  // The link the console opens in a new tab; the random token in it is the credential, spent on use.
  app.get<{ Params: { invoiceId: string }; Querystring: { token?: string } }>(
    "/v1/invoices/:invoiceId/pdf",
    async (request, reply) => {
      let rendered: Awaited<ReturnType<typeof renderInvoiceForToken>>;
      try {
        rendered = await renderInvoiceForToken(
          db,
          request.params.invoiceId,
          request.query.token ?? "",
          deps.config.seller,
        );
      } catch (error) {
        // A tab opened on a spent or expired link gets a page saying how to get a new one; other
        // clients keep the JSON error.
        if (error instanceof AppError && error.code === "not-found" && acceptsHtml(request.headers.accept)) {
          return reply
            .status(404)
            .type("text/html; charset=utf-8")
            .header("cache-control", "no-store")
            .send(invoiceLinkExpiredPage(INVOICES_PAGE_PATH));
        }
        throw error;
      }
      const { number, pdf } = rendered;
      return reply
        .type("application/pdf")
        .header("content-disposition", `inline; filename="${number}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
}

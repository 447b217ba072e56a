import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { registerCall } from "../../http/register-call";
import { createInvoiceLink, listInvoices, renderInvoiceForToken } from "./invoices.service";

export function registerInvoiceRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const db = deps.database.db;

  registerCall(app, deps, calls.invoices.get, ({ user, body }) =>
    listInvoices(db, user.userId, body.organizationId, body.page),
  );

  registerCall(app, deps, calls.invoices.retrieveLink, async ({ user, body }) => ({
    url: await createInvoiceLink(db, user.userId, body.invoiceId),
  }));

  // The link the console opens in a new tab; the random token in it is the credential, spent on use.
  app.get<{ Params: { invoiceId: string }; Querystring: { token?: string } }>(
    "/v1/invoices/:invoiceId/pdf",
    async (request, reply) => {
      const { number, pdf } = await renderInvoiceForToken(
        db,
        request.params.invoiceId,
        request.query.token ?? "",
        deps.config.seller,
      );
      return reply
        .type("application/pdf")
        .header("content-disposition", `inline; filename="${number}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
}

import { calls } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { registerCall } from "../../http/register-call";
import {
  deletePaymentMethod,
  finishPaymentSetup,
  getPaymentInfo,
  type MoneyDeps,
  rechargeAccount,
  rethrowPaymentProviderError,
  startPaymentSetup,
  updateAutoRecharge,
} from "./payments.service";
import { handleStripeEvent } from "./stripe-events.service";

/** What these routes use of the application's dependencies. */
export type PaymentsRouteDeps = Pick<
  AppDependencies,
  "config" | "database" | "mailer" | "payments" | "sandboxPayments" | "stripe"
>;

export function moneyDeps(deps: PaymentsRouteDeps, log?: MoneyDeps["log"]): MoneyDeps {
  return {
    db: deps.database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    seller: deps.config.seller,
    appOrigin: deps.config.appOrigin,
    log,
  };
}

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentsRouteDeps): void {
  const db = deps.database.db;
  // Built once; each request only adds its own logger.
  const money = moneyDeps(deps);
  const withLog = (log: MoneyDeps["log"]): MoneyDeps => ({ ...money, log });

  registerCall(app, deps, calls.payments.getPaymentInfo, ({ body }) =>
    getPaymentInfo(db, body.organizationId),
  );

  registerCall(app, deps, calls.payments.startSetupPayment, ({ body, request }) =>
    startPaymentSetup(withLog(request.log), body.organizationId),
  );

  registerCall(app, deps, calls.payments.finishSetupPayment, async ({ body, request }) => {
    await finishPaymentSetup(withLog(request.log), body.organizationId, body.setupIntentId);
    return {};
  });

  registerCall(app, deps, calls.payments.deletePayment, async ({ body, request }) => {
    await deletePaymentMethod(withLog(request.log), body.organizationId);
    return {};
  });

  registerCall(app, deps, calls.payments.updateAutoRecharge, async ({ body }) => {
    await updateAutoRecharge(db, body.organizationId, body);
    return {};
  });

  registerCall(app, deps, calls.payments.rechargeAccount, async ({ body, request }) => {
    await rechargeAccount(withLog(request.log), body.organizationId, body.amount);
    return {};
  });

  registerCall(app, deps, calls.payments.sandboxConfirmSetup, async ({ body }) => {
    const sandbox = deps.sandboxPayments;
    if (!sandbox) throw new AppError("not-found", "The sandbox payments provider is not in use.");
    return sandbox.confirmSetup(body).catch(rethrowPaymentProviderError);
  });

  if (deps.stripe && deps.config.stripe?.webhookSecret) {
    registerStripeWebhook(app, money, deps.stripe, deps.config.stripe.webhookSecret);
  }
}

/**
 * Stripe's webhook: the signature is checked over the raw body, then the event is applied (see
 * handleStripeEvent: once, whatever the order and number of deliveries). An event for a payment of
 * ours that is not recorded yet answers 503, so Stripe delivers it again.
 */
function registerStripeWebhook(app: FastifyInstance, money: MoneyDeps, stripe: Stripe, secret: string) {
  app.register(async (scope) => {
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    scope.post("/v1/payments/stripe/webhook", async (request) => {
      const signature = request.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(request.body as Buffer, String(signature ?? ""), secret);
      } catch {
        throw new AppError("invalid-input", "The webhook signature is invalid.");
      }
      await handleStripeEvent({ ...money, log: request.log, stripe }, event);
      return { received: true };
    });
  });
}

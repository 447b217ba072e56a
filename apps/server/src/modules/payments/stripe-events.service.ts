import type Stripe from "stripe";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { invoiceNumberOfPayment, issueDocument } from "../invoices/invoices.service";
import { credit, debit } from "../ledger/ledger.service";
import { findOrganizationRow, lockPayment, type PaymentRow } from "./payments.store";
import {
  centsToMicros,
  creditPaymentInTransaction,
  creditSucceededPayment,
  type MoneyDeps,
  markPaymentFailed,
} from "./recharge.service";
import {
  findPayment,
  findStripePaymentByIntent,
  organizationExists,
  refundedUnderPrefix,
} from "./stripe-events.store";

export interface StripeEventDeps extends MoneyDeps {
  stripe: Stripe;
}

/** Stripe retries a delivery answered with a 5xx (for up to three days), which is what we want here. */
function notRecordedYet(): AppError {
  return new AppError(
    "service-unavailable",
    "The payment this event refers to is not recorded yet; deliver the event again later.",
  );
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/**
 * Applies one verified Stripe event. Each effect is idempotent on its own Stripe id (the ledger's
 * unique references), and every effect first makes sure the payment itself is credited, so duplicate
 * deliveries change nothing and the order of delivery does not matter: a refund or dispute that
 * overtakes the success event credits the payment and then takes the money back, in one transaction.
 */
export async function handleStripeEvent(deps: StripeEventDeps, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case "payment_intent.succeeded": {
      const intent = event.data.object;
      const payment = await resolvePayment(deps, { intentId: intent.id, metadata: intent.metadata }, false);
      if (payment)
        await creditSucceededPayment(deps, { paymentId: payment.id, providerPaymentId: intent.id });
      return;
    }
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      const payment = await resolvePayment(deps, { intentId: intent.id, metadata: intent.metadata }, false);
      if (payment) {
        await markPaymentFailed(deps.db, {
          paymentId: payment.id,
          message: intent.last_payment_error?.message ?? "The payment failed.",
          providerPaymentId: intent.id,
        });
      }
      return;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const payment = await resolvePayment(
        deps,
        { intentId: idOf(charge.payment_intent), metadata: charge.metadata },
        true,
      );
      if (payment) await applyRefund(deps, payment.id, charge);
      return;
    }
    case "charge.dispute.created":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated": {
      const dispute = event.data.object;
      // An inquiry (a "warning" dispute) withdraws no funds; if it escalates, funds_withdrawn follows.
      if (event.type !== "charge.dispute.funds_reinstated" && dispute.status.startsWith("warning_")) return;
      const intentId = idOf(dispute.payment_intent) ?? (await intentOfCharge(deps, idOf(dispute.charge)));
      const payment = await resolvePayment(deps, { intentId, metadata: null }, true);
      if (payment) {
        await applyDispute(deps, payment.id, dispute, event.type === "charge.dispute.funds_reinstated");
      }
      return;
    }
    default:
      return;
  }
}

/**
 * Finds our payment for a Stripe object: by the payment id we put in the PaymentIntent's metadata,
 * else by the PaymentIntent's id, else (for charges and disputes, which need not carry the metadata)
 * by asking Stripe for the PaymentIntent. A payment of ours that cannot be found yet answers 5xx so
 * Stripe delivers again; an object that is not Prism's at all (another integration on the same
 * account, an organization since deleted) is acknowledged and ignored.
 */
async function resolvePayment(
  deps: StripeEventDeps,
  source: { intentId: string | null; metadata: Stripe.Metadata | null | undefined },
  mayAskStripe: boolean,
): Promise<PaymentRow | undefined> {
  const paymentId = source.metadata?.paymentId;
  const organizationId = source.metadata?.organizationId;
  if (paymentId !== undefined) {
    const payment = isUuid(paymentId) ? await findPayment(deps.db, paymentId) : undefined;
    if (payment?.provider === "stripe" && (!organizationId || organizationId === payment.organizationId)) {
      return payment;
    }
    if (payment) {
      deps.log?.error(
        { paymentId, organizationId },
        "a Stripe event names a payment of another organization",
      );
      return undefined;
    }
    if (await organizationIsGone(deps.db, organizationId)) return undefined;
    throw notRecordedYet();
  }
  if (source.intentId) {
    const payment = await findStripePaymentByIntent(deps.db, source.intentId);
    if (payment) return payment;
    if (mayAskStripe) {
      const intent = await retrieveIntent(deps, source.intentId);
      return intent ? resolvePayment(deps, { intentId: null, metadata: intent.metadata }, false) : undefined;
    }
  }
  // Ours (an intent made before payment ids were in the metadata) but not found: retry later.
  if (organizationId && !(await organizationIsGone(deps.db, organizationId))) throw notRecordedYet();
  return undefined;
}

async function organizationIsGone(db: Executor, organizationId: string | undefined): Promise<boolean> {
  if (!organizationId || !isUuid(organizationId)) return true;
  return !(await organizationExists(db, organizationId));
}

async function retrieveIntent(
  deps: StripeEventDeps,
  intentId: string,
): Promise<Stripe.PaymentIntent | undefined> {
  try {
    return await deps.stripe.paymentIntents.retrieve(intentId);
  } catch (error) {
    if (isStripeNotFound(error)) return undefined;
    throw notRecordedYet();
  }
}

async function intentOfCharge(deps: StripeEventDeps, chargeId: string | null): Promise<string | null> {
  if (!chargeId) return null;
  try {
    return idOf((await deps.stripe.charges.retrieve(chargeId)).payment_intent);
  } catch (error) {
    if (isStripeNotFound(error)) return null;
    throw notRecordedYet();
  }
}

async function loadOrganization(tx: Executor, organizationId: string) {
  const organization = await findOrganizationRow(tx, organizationId);
  if (!organization) throw new Error("the payment's organization vanished");
  return organization;
}

/**
 * Refunds: Stripe reports the charge's cumulative refunded amount, and events for two partial refunds
 * may arrive in either order. Each cumulative amount is its own reference, and only what exceeds the
 * refunds already taken back (read under the payment's lock) is debited, so every order and every
 * replay ends at the same total.
 */
async function applyRefund(deps: StripeEventDeps, paymentId: string, charge: Stripe.Charge): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment) return;
    // A refunded charge had succeeded, whether or not its success event has arrived yet.
    await creditPaymentInTransaction(tx, deps, payment, {
      providerPaymentId: idOf(charge.payment_intent) ?? undefined,
    });
    const prefix = `stripe-refund:${charge.id}:`;
    const owed = centsToMicros(charge.amount_refunded) - (await refundedUnderPrefix(tx, prefix));
    if (owed <= 0n) return;
    const reference = `${prefix}${charge.amount_refunded}`;
    const debited = await debit(tx, {
      kind: "payment-refund",
      organizationId: payment.organizationId,
      amountMicros: owed,
      reference,
    });
    if (!debited) return;
    const relatedInvoice = await invoiceNumberOfPayment(tx, payment.id);
    await issueDocument(tx, {
      kind: "credit-note",
      reference,
      organization: await loadOrganization(tx, payment.organizationId),
      payment,
      amountMicros: -owed,
      description: `Refund of the card payment${relatedInvoice ? ` of invoice ${relatedInvoice}` : ""}`,
      seller: deps.seller,
      relatedInvoice,
    });
  });
}

/**
 * Disputes: the disputed amount is taken back once per dispute, and given back once if the funds are
 * reinstated. A reinstatement that overtakes the dispute applies both, so the order does not matter.
 */
async function applyDispute(
  deps: StripeEventDeps,
  paymentId: string,
  dispute: Stripe.Dispute,
  reinstated: boolean,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment) return;
    await creditPaymentInTransaction(tx, deps, payment, {
      providerPaymentId: idOf(dispute.payment_intent) ?? undefined,
    });
    const amountMicros = centsToMicros(dispute.amount);
    const relatedInvoice = await invoiceNumberOfPayment(tx, payment.id);
    const organization = await loadOrganization(tx, payment.organizationId);
    const withdrawn = `stripe-dispute:${dispute.id}`;
    if (
      await debit(tx, {
        kind: "dispute",
        organizationId: payment.organizationId,
        amountMicros,
        reference: withdrawn,
      })
    ) {
      await issueDocument(tx, {
        kind: "credit-note",
        reference: withdrawn,
        organization,
        payment,
        amountMicros: -amountMicros,
        description: `Card payment${relatedInvoice ? ` of invoice ${relatedInvoice}` : ""} disputed by the cardholder`,
        seller: deps.seller,
        relatedInvoice,
      });
    }
    if (!reinstated) return;
    const returned = `stripe-dispute-reinstated:${dispute.id}`;
    if (
      await credit(tx, {
        kind: "dispute-reversal",
        organizationId: payment.organizationId,
        amountMicros,
        reference: returned,
      })
    ) {
      await issueDocument(tx, {
        kind: "invoice",
        reference: returned,
        organization,
        payment,
        amountMicros,
        description: `Card payment${relatedInvoice ? ` of invoice ${relatedInvoice}` : ""} reinstated after the dispute`,
        seller: deps.seller,
        relatedInvoice,
      });
    }
  });
}

/**
 * Stripe's 404 for an object that does not exist, recognised by the error's type rather than by its
 * class, so this module does not load the SDK (the client is made by createStripeClient).
 */
function isStripeNotFound(error: unknown): boolean {
  const { type, statusCode } = (error ?? {}) as { type?: unknown; statusCode?: unknown };
  return type === "StripeInvalidRequestError" && statusCode === 404;
}

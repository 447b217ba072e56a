import {
  BALANCE_DECIMALS,
  formatMicros,
  INVOICES_PAGE_PATH,
  microsToUsd,
  PAYMENT_METHOD_REQUIRED,
} from "@prism/contract";
import type { FastifyBaseLogger } from "fastify";
import type { SellerDetails } from "../../config";
import type { Database, Executor } from "../../db/client";
import type { organizations } from "../../db/schema";
import { AppError } from "../../errors";
import type { Mailer } from "../../providers/mail/mailer";
import { autoRechargeFailedMail, paymentReceiptMail } from "../../providers/mail/templates";
import type { PaymentsProvider } from "../../providers/payments/payments-provider";
import { NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { rearmLowBalance } from "../alerts/alerts.store";
import { type AuditRecord, recordAudit } from "../audit/audit.store";
import { emitEvent, paymentsRecipients, queueAlertMails } from "../events/events.service";
import { invoiceNumberOfPayment, issueDocument } from "../invoices/invoices.service";
import { credit } from "../ledger/ledger.service";
import {
  clearIsNew,
  disarmAutoRechargeBelowThreshold,
  findOrganizationRow,
  findPaymentMethod,
  insertPayment,
  listPendingPayments,
  lockPayment,
  markPaymentFailedRow,
  markPaymentSucceededRow,
  type PaymentRow,
  rearmAutoRecharge,
  setProviderPaymentId,
} from "./payments.store";

export interface MoneyDeps {
  db: Database;
  payments: PaymentsProvider;
  mailer: Mailer;
  /** Printed on the invoices and credit notes issued as money moves. */
  seller: SellerDetails;
  /** The console's origin, for the links in payment mails (never a request's Host header). */
  appOrigin: string;
  log?: FastifyBaseLogger | undefined;
}

/*
 * System money (decision 014): what the system runs for nobody, taking no user id — charging a card,
 * crediting a confirmed payment, failing a refused one, reconciling unconfirmed ones and auto recharge.
 * The console's payment operations, which begin with the caller's right, are in payments.service.ts.
 */

export async function loadOrganization(db: Executor, organizationId: string) {
  const organization = await findOrganizationRow(db, organizationId);
  if (!organization) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  return organization;
}

const MICROS_PER_CENT = 10_000n;

/**
 * A recharge's result comes from the payments provider (its answer, a webhook, reconciliation): the
 * system records it, not whoever's request happened to carry the answer.
 */
function rechargeResult(
  payment: PaymentRow,
  action: "recharge.succeeded" | "recharge.failed",
  extra: Record<string, unknown> = {},
): AuditRecord {
  return {
    organizationId: payment.organizationId,
    action,
    target: { type: "payment", id: payment.id },
    after: { amount: microsToUsd(payment.amountMicros), kind: payment.kind, ...extra },
    actor: { kind: "system" },
    ip: null,
  };
}

/**
 * Credits a locked payment in the caller's transaction, exactly once whichever confirmation comes
 * first (the synchronous answer, a webhook, a replayed webhook, reconciliation, a refund event that
 * overtook the success event): the ledger's unique reference refuses a second credit. Also issues the
 * invoice, clears isNew and re-arms auto recharge when the balance is back above its threshold.
 */
export async function creditPaymentInTransaction(
  tx: Executor,
  documents: Pick<MoneyDeps, "seller" | "appOrigin">,
  payment: PaymentRow,
  confirmation: { providerPaymentId?: string | undefined; receiptUrl?: string | null | undefined } = {},
): Promise<boolean> {
  if (confirmation.providerPaymentId && payment.providerPaymentId === null) {
    await setProviderPaymentId(tx, payment.id, confirmation.providerPaymentId);
  }
  const reference = `payment:${payment.id}`;
  const credited = await credit(tx, {
    organizationId: payment.organizationId,
    amountMicros: payment.amountMicros,
    reference,
  });
  if (!credited) return false;
  await markPaymentSucceededRow(tx, payment.id, confirmation.receiptUrl ?? payment.receiptUrl);
  await recordAudit(tx, rechargeResult(payment, "recharge.succeeded"));
  const organization = await clearIsNew(tx, payment.organizationId);
  if (!organization) throw new Error("credited organization vanished");
  await issueDocument(tx, {
    kind: "invoice",
    reference,
    organization,
    payment,
    amountMicros: payment.amountMicros,
    description: `Prepaid balance recharge (${organization.name})`,
    seller: documents.seller,
  });
  await rearmAutoRecharge(tx, payment.organizationId, organization.balanceMicros);
  await rearmLowBalance(tx, payment.organizationId);
  const eventId = await emitEvent(tx, payment.organizationId, "payment.succeeded", {
    ...paymentEventData(payment),
    balance: microsToUsd(organization.balanceMicros),
  });
  await queueReceiptMails(tx, { eventId, organization, payment, appOrigin: documents.appOrigin });
  return true;
}

/**
 * The receipt of a credited payment, queued in the crediting transaction (so it goes out exactly when
 * the money arrived, once): to whoever manages payments and to the billing email, each address once.
 * It names the amount, the card, the new balance and the invoice, and links to the Invoices page, where
 * the PDF opens (a link to the PDF itself would be a credential sitting in a mailbox).
 */
async function queueReceiptMails(
  tx: Executor,
  input: {
    eventId: string;
    organization: typeof organizations.$inferSelect;
    payment: PaymentRow;
    appOrigin: string;
  },
): Promise<void> {
  const { organization, payment } = input;
  const invoiceNumber = await invoiceNumberOfPayment(tx, payment.id);
  const recipients: { userId: string; email: string }[] = [
    ...(await paymentsRecipients(tx, organization.id)),
  ];
  const billingEmail = organization.billingEmail?.toLowerCase();
  if (billingEmail && !recipients.some((recipient) => recipient.email.toLowerCase() === billingEmail)) {
    // Not a user: keyed by the address, so a replayed confirmation still sends it once.
    recipients.push({ userId: `billing:${billingEmail}`, email: billingEmail });
  }
  await queueAlertMails(tx, {
    eventId: input.eventId,
    recipients,
    compose: (to) =>
      paymentReceiptMail(to, {
        organizationName: organization.name,
        amountUsd: microsToUsd(payment.amountMicros),
        balanceUsd: microsToUsd(organization.balanceMicros),
        kind: payment.kind,
        card: payment.cardLast4 ? { brand: payment.cardBrand, last4: payment.cardLast4 } : null,
        invoiceNumber: invoiceNumber ?? null,
        invoicesUrl: `${input.appOrigin}${INVOICES_PAGE_PATH}`,
        paidAt: new Date(),
      }),
  });
}

/** What payment events say about the payment. */
function paymentEventData(payment: Pick<PaymentRow, "id" | "organizationId" | "kind" | "amountMicros">) {
  return {
    organization_id: payment.organizationId,
    payment_id: payment.id,
    kind: payment.kind,
    amount: microsToUsd(payment.amountMicros),
  };
}

/** Marks a payment succeeded and credits the organization, once (see creditPaymentInTransaction). */
export async function creditSucceededPayment(
  deps: Pick<MoneyDeps, "db" | "seller" | "appOrigin">,
  input: {
    paymentId: string;
    providerPaymentId?: string | undefined;
    receiptUrl?: string | null | undefined;
  },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) return false;
    return creditPaymentInTransaction(tx, deps, payment, input);
  });
}

/**
 * Reports a failed auto recharge in the caller's transaction: the `auto_recharge.failed` event and
 * the mail to whoever manages payments. The caller decides it once per failure (a payment's one
 * transition from pending to failed), so it is reported once however the failure reached us.
 */
async function reportAutoRechargeFailure(
  tx: Executor,
  input: { organizationId: string; amountMicros: bigint; message: string },
): Promise<void> {
  const organization = await loadOrganization(tx, input.organizationId);
  const amountUsd = microsToUsd(input.amountMicros);
  const eventId = await emitEvent(tx, input.organizationId, "auto_recharge.failed", {
    organization_id: input.organizationId,
    amount: amountUsd,
    message: input.message,
  });
  await queueAlertMails(tx, {
    eventId,
    recipients: await paymentsRecipients(tx, input.organizationId),
    compose: (to) => autoRechargeFailedMail(to, organization.name, amountUsd, input.message),
  });
}

/**
 * Records a refused payment; a payment already credited stays succeeded. Only the call that moves it
 * from pending to failed reports it, so the synchronous answer, a webhook (however often delivered)
 * and reconciliation report a payment's failure once between them; a failed auto recharge also
 * reports `auto_recharge.failed` and mails, whichever of them brought the news.
 */
export async function markPaymentFailed(
  db: Database,
  input: { paymentId: string; message: string; providerPaymentId?: string | null | undefined },
): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await markPaymentFailedRow(tx, input.paymentId, input.message);
    if (failed) {
      await recordAudit(tx, rechargeResult(failed, "recharge.failed", { reason: input.message }));
      await emitEvent(tx, failed.organizationId, "payment.failed", {
        ...paymentEventData(failed),
        message: input.message,
      });
      if (failed.kind === "auto") {
        await reportAutoRechargeFailure(tx, {
          organizationId: failed.organizationId,
          amountMicros: failed.amountMicros,
          message: input.message,
        });
      }
    }
    if (input.providerPaymentId) await setProviderPaymentId(tx, input.paymentId, input.providerPaymentId);
  });
}

export type RechargeResult =
  | { status: "succeeded" | "pending" | "unconfirmed" }
  /** `attempted`: whether a payment was made (and recorded failed) or none could be, for want of a card. */
  | { status: "failed"; message: string; attempted: boolean };

/**
 * Charges the saved card and credits the balance when the provider confirms. The payment row is
 * written before the provider is called and its id travels with the charge, so whatever reaches us
 * first (this call's answer, a webhook, reconciliation) finds it; a lost answer leaves it pending.
 */
export async function chargeOrganization(
  deps: MoneyDeps,
  input: { organizationId: string; amountMicros: bigint; kind: "manual" | "auto" },
): Promise<RechargeResult> {
  const method = await findPaymentMethod(deps.db, input.organizationId);
  if (!method) return { status: "failed", message: PAYMENT_METHOD_REQUIRED, attempted: false };
  const payment = await deps.db.transaction(async (tx) => {
    const inserted = await insertPayment(tx, {
      organizationId: input.organizationId,
      provider: deps.payments.kind,
      kind: input.kind,
      amountMicros: input.amountMicros,
      status: "pending",
      cardBrand: method.brand,
      cardLast4: method.last4,
    });
    await recordAudit(tx, {
      organizationId: input.organizationId,
      action: "recharge.started",
      target: { type: "payment", id: inserted.id },
      after: {
        amount: microsToUsd(inserted.amountMicros),
        kind: input.kind,
        card: `${method.brand} ${method.last4}`,
      },
      // An auto recharge is started by the balance crossing its threshold, not by the call that
      // happened to cross it.
      ...(input.kind === "auto" ? { actor: { kind: "system" as const }, ip: null } : {}),
    });
    return inserted;
  });
  const outcome = await deps.payments.charge({
    organizationId: input.organizationId,
    paymentId: payment.id,
    paymentMethodId: method.providerPaymentMethodId,
    amountMicros: input.amountMicros,
    idempotencyKey: `recharge-${payment.id}`,
    description: `${input.kind === "auto" ? "Auto recharge" : "Recharge"} of ${formatMicros(input.amountMicros, BALANCE_DECIMALS)}`,
  });
  if (outcome.status === "unconfirmed") {
    deps.log?.warn(
      { paymentId: payment.id, reason: outcome.reason },
      "the payments provider's answer was lost; the payment waits for its webhook or reconciliation",
    );
    return { status: "unconfirmed" };
  }
  if (outcome.status === "failed") {
    await markPaymentFailed(deps.db, {
      paymentId: payment.id,
      message: outcome.message,
      providerPaymentId: outcome.providerPaymentId,
    });
    return { status: "failed", message: outcome.message, attempted: true };
  }
  if (outcome.status === "succeeded") {
    await creditSucceededPayment(deps, {
      paymentId: payment.id,
      providerPaymentId: outcome.providerPaymentId,
      receiptUrl: outcome.receiptUrl,
    });
  } else {
    await setProviderPaymentId(deps.db, payment.id, outcome.providerPaymentId);
  }
  return { status: outcome.status };
}

/** Pending payments younger than this are left to the synchronous answer and the webhook. */
const RECONCILE_MIN_AGE_MS = 2 * 60_000;
/** A payment the provider still does not know after this long was never charged. */
const RECONCILE_GIVE_UP_MS = 60 * 60_000;
const RECONCILE_BATCH = 50;
const RECONCILE_INTERVAL_MS = 60_000;
const NEVER_CHARGED = "The payment could not be confirmed with the card provider and was not charged.";

/**
 * The backstop for charges whose answer was lost and whose webhook never came: asks the provider
 * what became of each pending payment (reading only, never charging) and credits or fails it.
 * Returns how many payments it settled.
 */
export async function reconcilePendingPayments(
  deps: MoneyDeps,
  options: { minAgeMs?: number } = {},
): Promise<number> {
  const now = Date.now();
  const pending = await listPendingPayments(deps.db, {
    provider: deps.payments.kind,
    olderThan: new Date(now - (options.minAgeMs ?? RECONCILE_MIN_AGE_MS)),
    limit: RECONCILE_BATCH,
  });
  let settled = 0;
  for (const payment of pending) {
    try {
      const outcome = await deps.payments.findCharge({
        organizationId: payment.organizationId,
        paymentId: payment.id,
        since: payment.createdAt,
      });
      if (outcome?.status === "succeeded") {
        await creditSucceededPayment(deps, {
          paymentId: payment.id,
          providerPaymentId: outcome.providerPaymentId,
          receiptUrl: outcome.receiptUrl,
        });
        settled += 1;
      } else if (outcome?.status === "failed") {
        await markPaymentFailed(deps.db, {
          paymentId: payment.id,
          message: outcome.message,
          providerPaymentId: outcome.providerPaymentId,
        });
        settled += 1;
      } else if (outcome === undefined && now - payment.createdAt.getTime() > RECONCILE_GIVE_UP_MS) {
        await markPaymentFailed(deps.db, { paymentId: payment.id, message: NEVER_CHARGED });
        settled += 1;
      }
    } catch (error) {
      deps.log?.warn({ err: error, paymentId: payment.id }, "could not reconcile a pending payment");
    }
  }
  return settled;
}

/** Runs reconciliation every minute in this process; any number of processes may run it at once. */
export function startPaymentReconciler(deps: MoneyDeps): NodeJS.Timeout {
  const timer = setInterval(() => {
    reconcilePendingPayments(deps).catch((error: unknown) => {
      deps.log?.error({ err: error }, "payment reconciliation failed");
    });
  }, RECONCILE_INTERVAL_MS);
  timer.unref();
  return timer;
}

/** How many micro-dollars a provider amount in cents is. */
export function centsToMicros(cents: number): bigint {
  return BigInt(Math.round(cents)) * MICROS_PER_CENT;
}

/**
 * Runs after anything that lowers a balance. When it is below an enabled, armed threshold, one
 * conditional update disarms the setting, so of many concurrent callers exactly one recharges for
 * this crossing. A failed recharge stays disarmed (no retry loop) and is reported (event and mail):
 * by `markPaymentFailed` when a payment was refused, now or later; here when there was no card to charge.
 */
export async function triggerAutoRechargeIfNeeded(deps: MoneyDeps, organizationId: string): Promise<boolean> {
  const setting = await disarmAutoRechargeBelowThreshold(deps.db, organizationId);
  if (!setting) return false;
  const result = await chargeOrganization(deps, {
    organizationId,
    amountMicros: setting.amountMicros,
    kind: "auto",
  });
  // An unconfirmed recharge is not a failure to report: it is credited when the provider confirms,
  // or reported by markPaymentFailed when the provider refuses it later.
  if (result.status === "failed") {
    deps.log?.warn({ organizationId, reason: result.message }, "auto recharge failed");
    if (!result.attempted) {
      await deps.db.transaction((tx) =>
        reportAutoRechargeFailure(tx, {
          organizationId,
          amountMicros: setting.amountMicros,
          message: result.message,
        }),
      );
    }
  }
  return true;
}

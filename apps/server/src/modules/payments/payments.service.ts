import {
  type Autorecharge,
  BALANCE_DECIMALS,
  DEFAULT_AUTORECHARGE,
  formatMicros,
  microsToUsd,
  PAYMENT_METHOD_REQUIRED,
  PAYMENT_UNCONFIRMED,
  type PaymentInfo,
  usdToMicros,
} from "@prism/contract";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { SellerDetails } from "../../config";
import type { Database, Executor } from "../../db/client";
import {
  autoRechargeSettings,
  organizationMembers,
  organizations,
  paymentMethods,
  payments,
  users,
} from "../../db/schema";
import { AppError } from "../../errors";
import type { Mailer } from "../../providers/mail/mailer";
import { autoRechargeFailedMail } from "../../providers/mail/templates";
import { PaymentProviderError, type PaymentsProvider } from "../../providers/payments/payments-provider";
import { NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { issueDocument } from "../invoices/invoices.service";
import { credit } from "../ledger/ledger.service";

export interface MoneyDeps {
  db: Database;
  payments: PaymentsProvider;
  mailer: Mailer;
  /** Printed on the invoices and credit notes issued as money moves. */
  seller: SellerDetails;
  log?: FastifyBaseLogger | undefined;
}

export async function getPaymentInfo(
  db: Executor,
  organizationId: string,
): Promise<{ payment: PaymentInfo; autorecharge: Autorecharge }> {
  const [method] = await db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId));
  const [settings] = await db
    .select()
    .from(autoRechargeSettings)
    .where(eq(autoRechargeSettings.organizationId, organizationId));
  return {
    payment: method
      ? {
          brand: method.brand,
          funding: method.funding,
          last4: method.last4,
          country: method.country,
          expMonth: method.expMonth,
          expYear: method.expYear,
        }
      : {},
    autorecharge: settings
      ? {
          enabled: settings.enabled,
          threshold: microsToUsd(settings.thresholdMicros),
          amount: microsToUsd(settings.amountMicros),
        }
      : { ...DEFAULT_AUTORECHARGE },
  };
}

async function loadOrganization(db: Executor, organizationId: string) {
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  return organization;
}

export async function startPaymentSetup(deps: MoneyDeps, organizationId: string) {
  const organization = await loadOrganization(deps.db, organizationId);
  return deps.payments.startSetup(organization);
}

/** Rethrows a provider's refusal as the contract's error (naming the card field it is about). */
export function rethrowPaymentProviderError(error: unknown): never {
  if (error instanceof PaymentProviderError) {
    if (error.kind === "declined") throw new AppError("card-declined", error.message);
    if (error.kind === "not-found") throw new AppError("not-found", error.message);
    throw new AppError("invalid-input", error.message, { field: error.field });
  }
  throw error;
}

/** Saves the card of a confirmed setup intent, replacing the previous one. */
export async function finishPaymentSetup(deps: MoneyDeps, organizationId: string, setupIntentId: string) {
  const saved = await deps.payments
    .finishSetup(organizationId, setupIntentId)
    .catch(rethrowPaymentProviderError);
  const [previous] = await deps.db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId));
  const values = {
    organizationId,
    provider: deps.payments.kind,
    providerPaymentMethodId: saved.providerPaymentMethodId,
    brand: saved.brand,
    funding: saved.funding,
    last4: saved.last4,
    country: saved.country,
    expMonth: saved.expMonth,
    expYear: saved.expYear,
  };
  await deps.db
    .insert(paymentMethods)
    .values(values)
    .onConflictDoUpdate({ target: paymentMethods.organizationId, set: values });
  if (previous && previous.providerPaymentMethodId !== saved.providerPaymentMethodId) {
    await deps.payments.detach(organizationId, previous.providerPaymentMethodId).catch((error: unknown) => {
      deps.log?.warn({ err: error }, "could not detach the replaced payment method");
    });
  }
}

export async function deletePaymentMethod(deps: MoneyDeps, organizationId: string) {
  const deleted = await deps.db
    .delete(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId))
    .returning();
  const method = deleted[0];
  if (method) await deps.payments.detach(organizationId, method.providerPaymentMethodId);
}

export async function updateAutoRecharge(
  db: Executor,
  organizationId: string,
  input: { enabled: boolean; threshold: number; amount: number },
) {
  const values = {
    organizationId,
    enabled: input.enabled,
    thresholdMicros: usdToMicros(input.threshold),
    amountMicros: usdToMicros(input.amount),
    // New settings start armed; a balance already below the threshold recharges at the next charge.
    armed: true,
    updatedAt: new Date(),
  };
  await db
    .insert(autoRechargeSettings)
    .values(values)
    .onConflictDoUpdate({ target: autoRechargeSettings.organizationId, set: values });
}

type PaymentRow = typeof payments.$inferSelect;

const MICROS_PER_CENT = 10_000n;

/** Locks a payment row: every change to one payment's money runs behind this lock, one at a time. */
export async function lockPayment(tx: Executor, paymentId: string): Promise<PaymentRow | undefined> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return payment;
}

/**
 * Credits a locked payment in the caller's transaction, exactly once whichever confirmation comes
 * first (the synchronous answer, a webhook, a replayed webhook, reconciliation, a refund event that
 * overtook the success event): the ledger's unique reference refuses a second credit. Also issues the
 * invoice, clears isNew and re-arms auto recharge when the balance is back above its threshold.
 */
export async function creditPaymentInTransaction(
  tx: Executor,
  seller: SellerDetails,
  payment: PaymentRow,
  confirmation: { providerPaymentId?: string | undefined; receiptUrl?: string | null | undefined } = {},
): Promise<boolean> {
  if (confirmation.providerPaymentId && payment.providerPaymentId === null) {
    await tx
      .update(payments)
      .set({ providerPaymentId: confirmation.providerPaymentId })
      .where(eq(payments.id, payment.id));
  }
  const reference = `payment:${payment.id}`;
  const credited = await credit(tx, {
    organizationId: payment.organizationId,
    amountMicros: payment.amountMicros,
    reference,
  });
  if (!credited) return false;
  await tx
    .update(payments)
    .set({
      status: "succeeded",
      completedAt: new Date(),
      failureMessage: null,
      receiptUrl: confirmation.receiptUrl ?? payment.receiptUrl,
    })
    .where(eq(payments.id, payment.id));
  const [organization] = await tx
    .update(organizations)
    .set({ isNew: false })
    .where(eq(organizations.id, payment.organizationId))
    .returning();
  if (!organization) throw new Error("credited organization vanished");
  await issueDocument(tx, {
    kind: "invoice",
    reference,
    organization,
    payment,
    amountMicros: payment.amountMicros,
    description: `Prepaid balance recharge (${organization.name})`,
    seller,
  });
  await tx
    .update(autoRechargeSettings)
    .set({ armed: true })
    .where(
      and(
        eq(autoRechargeSettings.organizationId, payment.organizationId),
        sql`${autoRechargeSettings.thresholdMicros} <= ${organization.balanceMicros}`,
      ),
    );
  return true;
}

/** Marks a payment succeeded and credits the organization, once (see creditPaymentInTransaction). */
export async function creditSucceededPayment(
  deps: Pick<MoneyDeps, "db" | "seller">,
  input: {
    paymentId: string;
    providerPaymentId?: string | undefined;
    receiptUrl?: string | null | undefined;
  },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) return false;
    return creditPaymentInTransaction(tx, deps.seller, payment, input);
  });
}

/** Records a refused payment; a payment already credited stays succeeded. */
export async function markPaymentFailed(
  db: Executor,
  input: { paymentId: string; message: string; providerPaymentId?: string | null | undefined },
): Promise<void> {
  await db
    .update(payments)
    .set({ status: "failed", failureMessage: input.message, completedAt: new Date() })
    .where(and(eq(payments.id, input.paymentId), eq(payments.status, "pending")));
  if (input.providerPaymentId) {
    await db
      .update(payments)
      .set({ providerPaymentId: input.providerPaymentId })
      .where(and(eq(payments.id, input.paymentId), isNull(payments.providerPaymentId)));
  }
}

export type RechargeResult =
  | { status: "succeeded" | "pending" | "unconfirmed" }
  | { status: "failed"; message: string };

/**
 * Charges the saved card and credits the balance when the provider confirms. The payment row is
 * written before the provider is called and its id travels with the charge, so whatever reaches us
 * first (this call's answer, a webhook, reconciliation) finds it; a lost answer leaves it pending.
 */
export async function chargeOrganization(
  deps: MoneyDeps,
  input: { organizationId: string; amountMicros: bigint; kind: "manual" | "auto" },
): Promise<RechargeResult> {
  const [method] = await deps.db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, input.organizationId));
  if (!method) return { status: "failed", message: PAYMENT_METHOD_REQUIRED };
  const [payment] = await deps.db
    .insert(payments)
    .values({
      organizationId: input.organizationId,
      provider: deps.payments.kind,
      kind: input.kind,
      amountMicros: input.amountMicros,
      status: "pending",
      cardBrand: method.brand,
      cardLast4: method.last4,
    })
    .returning();
  if (!payment) throw new Error("payment insert returned no row");
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
    return { status: "failed", message: outcome.message };
  }
  if (outcome.status === "succeeded") {
    await creditSucceededPayment(deps, {
      paymentId: payment.id,
      providerPaymentId: outcome.providerPaymentId,
      receiptUrl: outcome.receiptUrl,
    });
  } else {
    await deps.db
      .update(payments)
      .set({ providerPaymentId: outcome.providerPaymentId })
      .where(and(eq(payments.id, payment.id), isNull(payments.providerPaymentId)));
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
  const pending = await deps.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, "pending"),
        eq(payments.provider, deps.payments.kind),
        lt(payments.createdAt, new Date(now - (options.minAgeMs ?? RECONCILE_MIN_AGE_MS))),
      ),
    )
    .orderBy(payments.createdAt)
    .limit(RECONCILE_BATCH);
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

export async function rechargeAccount(
  deps: MoneyDeps,
  organizationId: string,
  amountUsd: number,
): Promise<void> {
  const [method] = await deps.db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId));
  if (!method) throw new AppError("payment-method-required", PAYMENT_METHOD_REQUIRED);
  const result = await chargeOrganization(deps, {
    organizationId,
    amountMicros: usdToMicros(amountUsd),
    kind: "manual",
  });
  if (result.status === "failed") throw new AppError("payment-failed", result.message);
  if (result.status === "unconfirmed") throw new AppError("payment-unconfirmed", PAYMENT_UNCONFIRMED);
}

/**
 * Runs after anything that lowers a balance. When it is below an enabled, armed threshold, one
 * conditional update disarms the setting, so of many concurrent callers exactly one recharges for
 * this crossing. A failed recharge stays disarmed (no retry loop) and the owner is mailed.
 */
export async function triggerAutoRechargeIfNeeded(deps: MoneyDeps, organizationId: string): Promise<boolean> {
  const disarmed = await deps.db
    .update(autoRechargeSettings)
    .set({ armed: false })
    .where(
      and(
        eq(autoRechargeSettings.organizationId, organizationId),
        eq(autoRechargeSettings.enabled, true),
        eq(autoRechargeSettings.armed, true),
        sql`${autoRechargeSettings.thresholdMicros} > (select ${organizations.balanceMicros} from ${organizations} where ${organizations.id} = ${organizationId})`,
      ),
    )
    .returning();
  const setting = disarmed[0];
  if (!setting) return false;
  const result = await chargeOrganization(deps, {
    organizationId,
    amountMicros: setting.amountMicros,
    kind: "auto",
  });
  // An unconfirmed recharge is not a failure to report: it is credited when the provider confirms.
  if (result.status === "failed") {
    deps.log?.warn({ organizationId, reason: result.message }, "auto recharge failed");
    const [owner] = await deps.db
      .select({ email: users.email })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(
        and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.isOwner, true)),
      );
    const to = owner?.email;
    if (to) {
      const organization = await loadOrganization(deps.db, organizationId);
      await deps.mailer.send(
        autoRechargeFailedMail(to, organization.name, microsToUsd(setting.amountMicros), result.message),
      );
    }
  }
  return true;
}

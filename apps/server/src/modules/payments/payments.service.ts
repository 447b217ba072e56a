import { randomUUID } from "node:crypto";
import {
  type Autorecharge,
  DEFAULT_AUTORECHARGE,
  microsToUsd,
  type PaymentInfo,
  usdToMicros,
} from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Executor } from "../../db/client";
import {
  autoRechargeSettings,
  invoices,
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
import { credit } from "../ledger/ledger.service";

export interface MoneyDeps {
  db: Database;
  payments: PaymentsProvider;
  mailer: Mailer;
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
  if (!organization) throw new AppError("not-found", "Organization not found.");
  return organization;
}

export async function startPaymentSetup(deps: MoneyDeps, organizationId: string) {
  const organization = await loadOrganization(deps.db, organizationId);
  return deps.payments.startSetup(organization);
}

function toAppError(error: unknown): never {
  if (error instanceof PaymentProviderError) {
    if (error.kind === "declined") throw new AppError("card-declined", error.message);
    if (error.kind === "not-found") throw new AppError("not-found", error.message);
    throw new AppError("invalid-input", error.message);
  }
  throw error;
}

/** Saves the card of a confirmed setup intent, replacing the previous one. */
export async function finishPaymentSetup(deps: MoneyDeps, organizationId: string, setupIntentId: string) {
  const saved = await deps.payments.finishSetup(organizationId, setupIntentId).catch(toAppError);
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

/**
 * Marks a payment succeeded and credits the organization, exactly once whichever confirmation comes
 * first (the synchronous answer, a webhook, a replayed webhook): the ledger's unique reference and
 * the conditional status update both refuse a second credit. Also issues the invoice, clears isNew
 * and re-arms auto recharge when the balance is back above its threshold.
 */
export async function creditSucceededPayment(
  db: Database,
  input: { provider: "sandbox" | "stripe"; providerPaymentId: string; receiptUrl?: string | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(
        and(eq(payments.provider, input.provider), eq(payments.providerPaymentId, input.providerPaymentId)),
      )
      .for("update");
    if (!payment) return false;
    const credited = await credit(tx, {
      organizationId: payment.organizationId,
      amountMicros: payment.amountMicros,
      reference: `payment:${payment.id}`,
    });
    if (!credited) return false;
    await tx
      .update(payments)
      .set({
        status: "succeeded",
        completedAt: new Date(),
        failureMessage: null,
        receiptUrl: input.receiptUrl ?? payment.receiptUrl,
      })
      .where(eq(payments.id, payment.id));
    const [organization] = await tx
      .update(organizations)
      .set({ isNew: false })
      .where(eq(organizations.id, payment.organizationId))
      .returning();
    if (!organization) throw new Error("credited organization vanished");
    await tx.insert(invoices).values({
      organizationId: payment.organizationId,
      paymentId: payment.id,
      amountMicros: payment.amountMicros,
      billing: {
        billingName: organization.billingName,
        billingEmail: organization.billingEmail,
        taxId: organization.taxId,
        address: organization.address,
        city: organization.city,
        state: organization.state,
        zipCode: organization.zipCode,
        country: organization.country,
        organizationName: organization.name,
        cardBrand: payment.cardBrand,
        cardLast4: payment.cardLast4,
      },
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
  });
}

export async function markPaymentFailed(
  db: Database,
  input: { provider: "sandbox" | "stripe"; providerPaymentId: string; message: string },
): Promise<void> {
  await db
    .update(payments)
    .set({ status: "failed", failureMessage: input.message, completedAt: new Date() })
    .where(
      and(
        eq(payments.provider, input.provider),
        eq(payments.providerPaymentId, input.providerPaymentId),
        eq(payments.status, "pending"),
      ),
    );
}

export type RechargeResult = { status: "succeeded" | "pending" } | { status: "failed"; message: string };

/** Charges the saved card and credits the balance when the provider confirms. */
export async function chargeOrganization(
  deps: MoneyDeps,
  input: { organizationId: string; amountMicros: bigint; kind: "manual" | "auto" },
): Promise<RechargeResult> {
  const [method] = await deps.db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, input.organizationId));
  if (!method) return { status: "failed", message: "Please add a Payment Method first" };
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
    paymentMethodId: method.providerPaymentMethodId,
    amountMicros: input.amountMicros,
    idempotencyKey: `recharge-${payment.id}`,
    description: `${input.kind === "auto" ? "Auto recharge" : "Recharge"} of $${microsToUsd(input.amountMicros).toFixed(2)}`,
  });
  if (outcome.providerPaymentId) {
    await deps.db
      .update(payments)
      .set({ providerPaymentId: outcome.providerPaymentId })
      .where(eq(payments.id, payment.id));
  }
  if (outcome.status === "failed") {
    await deps.db
      .update(payments)
      .set({ status: "failed", failureMessage: outcome.message, completedAt: new Date() })
      .where(eq(payments.id, payment.id));
    return { status: "failed", message: outcome.message };
  }
  if (outcome.status === "succeeded") {
    await creditSucceededPayment(deps.db, {
      provider: deps.payments.kind,
      providerPaymentId: outcome.providerPaymentId,
      receiptUrl: outcome.receiptUrl,
    });
  }
  return { status: outcome.status };
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
  if (!method) throw new AppError("payment-method-required", "Please add a Payment Method first");
  const result = await chargeOrganization(deps, {
    organizationId,
    amountMicros: usdToMicros(amountUsd),
    kind: "manual",
  });
  if (result.status === "failed") throw new AppError("payment-failed", result.message);
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

export function newIdempotencyKey(): string {
  return randomUUID();
}

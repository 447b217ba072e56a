import {
  type Autorecharge,
  DEFAULT_AUTORECHARGE,
  microsToUsd,
  PAYMENT_METHOD_REQUIRED,
  PAYMENT_UNCONFIRMED,
  type PaymentInfo,
  usdToMicros,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import { AppError } from "../../errors";
import { PaymentProviderError } from "../../providers/payments/payments-provider";
import { changedFields, recordAudit } from "../audit/audit.store";
import {
  deletePaymentMethodRow,
  findAutoRechargeSettings,
  findPaymentMethod,
  upsertAutoRechargeSettings,
  upsertPaymentMethod,
} from "./payments.store";
import { chargeOrganization, loadOrganization, type MoneyDeps } from "./recharge.service";

export type { MoneyDeps };

/*
 * The console's payment operations. Each call declares `organization.payments`, which the gate
 * (`resolveCaller`) checks before these run (decision 023; it was the first line of each, decision 014).
 * What the system runs for nobody is in recharge.service.ts.
 */

export async function getPaymentInfo(
  db: Executor,
  organizationId: string,
): Promise<{ payment: PaymentInfo; autorecharge: Autorecharge }> {
  const method = await findPaymentMethod(db, organizationId);
  const settings = await findAutoRechargeSettings(db, organizationId);
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
  const previous = await findPaymentMethod(deps.db, organizationId);
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
  await deps.db.transaction(async (tx) => {
    await upsertPaymentMethod(tx, values);
    await recordAudit(tx, {
      organizationId,
      action: "payment-method.added",
      target: { type: "payment-method", id: organizationId },
      ...(previous ? { before: cardOf(previous) } : {}),
      after: cardOf(values),
    });
  });
  if (previous && previous.providerPaymentMethodId !== saved.providerPaymentMethodId) {
    await deps.payments.detach(organizationId, previous.providerPaymentMethodId).catch((error: unknown) => {
      deps.log?.warn({ err: error }, "could not detach the replaced payment method");
    });
  }
}

/** What the log keeps of a card: enough to recognise it, never its number (which we never hold). */
function cardOf(method: {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}): Record<string, unknown> {
  return { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear };
}

export async function deletePaymentMethod(deps: MoneyDeps, organizationId: string) {
  const method = await deps.db.transaction(async (tx) => {
    const deleted = await deletePaymentMethodRow(tx, organizationId);
    if (deleted) {
      await recordAudit(tx, {
        organizationId,
        action: "payment-method.removed",
        target: { type: "payment-method", id: organizationId },
        before: cardOf(deleted),
      });
    }
    return deleted;
  });
  if (method) await deps.payments.detach(organizationId, method.providerPaymentMethodId);
}

export async function updateAutoRecharge(
  db: Database,
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
  await db.transaction(async (tx) => {
    const current = await findAutoRechargeSettings(tx, organizationId);
    await upsertAutoRechargeSettings(tx, values);
    const settingsOf = (settings: { enabled: boolean; thresholdMicros: bigint; amountMicros: bigint }) => ({
      enabled: settings.enabled,
      threshold: microsToUsd(settings.thresholdMicros),
      amount: microsToUsd(settings.amountMicros),
    });
    await recordAudit(tx, {
      organizationId,
      action: "auto-recharge.updated",
      target: { type: "auto-recharge", id: organizationId },
      ...changedFields(current ? settingsOf(current) : { ...DEFAULT_AUTORECHARGE }, settingsOf(values)),
    });
  });
}

export async function rechargeAccount(
  deps: MoneyDeps,
  organizationId: string,
  amountUsd: number,
): Promise<void> {
  const method = await findPaymentMethod(deps.db, organizationId);
  if (!method) throw new AppError("payment-method-required", PAYMENT_METHOD_REQUIRED);
  const result = await chargeOrganization(deps, {
    organizationId,
    amountMicros: usdToMicros(amountUsd),
    kind: "manual",
  });
  if (result.status === "failed") throw new AppError("payment-failed", result.message);
  if (result.status === "unconfirmed") throw new AppError("payment-unconfirmed", PAYMENT_UNCONFIRMED);
}

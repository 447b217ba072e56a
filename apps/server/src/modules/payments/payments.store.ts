import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { autoRechargeSettings, organizations, paymentMethods, payments } from "../../db/schema";

/** Data access of the payments module: saved cards, auto recharge settings and payments. */

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentMethodValues = typeof paymentMethods.$inferInsert;

export async function findPaymentMethod(db: Executor, organizationId: string) {
  const [method] = await db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId));
  return method;
}

/** Saves the organization's card, replacing the previous one (one card per organization). */
export async function upsertPaymentMethod(tx: Executor, values: PaymentMethodValues): Promise<void> {
  await tx
    .insert(paymentMethods)
    .values(values)
    .onConflictDoUpdate({ target: paymentMethods.organizationId, set: values });
}

export async function deletePaymentMethodRow(tx: Executor, organizationId: string) {
  const [deleted] = await tx
    .delete(paymentMethods)
    .where(eq(paymentMethods.organizationId, organizationId))
    .returning();
  return deleted;
}

export async function findAutoRechargeSettings(db: Executor, organizationId: string) {
  const [settings] = await db
    .select()
    .from(autoRechargeSettings)
    .where(eq(autoRechargeSettings.organizationId, organizationId));
  return settings;
}

export async function upsertAutoRechargeSettings(
  tx: Executor,
  values: typeof autoRechargeSettings.$inferInsert,
): Promise<void> {
  await tx
    .insert(autoRechargeSettings)
    .values(values)
    .onConflictDoUpdate({ target: autoRechargeSettings.organizationId, set: values });
}

export async function findOrganizationRow(db: Executor, organizationId: string) {
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return organization;
}

/** Locks a payment row: every change to one payment's money runs behind this lock, one at a time. */
export async function lockPayment(tx: Executor, paymentId: string): Promise<PaymentRow | undefined> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return payment;
}

export async function insertPayment(tx: Executor, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [payment] = await tx.insert(payments).values(values).returning();
  if (!payment) throw new Error("payment insert returned no row");
  return payment;
}

/** Records the provider's id of a payment that has none yet. */
export async function setProviderPaymentId(tx: Executor, paymentId: string, providerPaymentId: string) {
  await tx
    .update(payments)
    .set({ providerPaymentId })
    .where(and(eq(payments.id, paymentId), isNull(payments.providerPaymentId)));
}

export async function markPaymentSucceededRow(
  tx: Executor,
  paymentId: string,
  receiptUrl: string | null,
): Promise<void> {
  await tx
    .update(payments)
    .set({ status: "succeeded", completedAt: new Date(), failureMessage: null, receiptUrl })
    .where(eq(payments.id, paymentId));
}

/** Fails a pending payment; the row when it was pending (a credited one stays succeeded). */
export async function markPaymentFailedRow(tx: Executor, paymentId: string, message: string) {
  const [failed] = await tx
    .update(payments)
    .set({ status: "failed", failureMessage: message, completedAt: new Date() })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")))
    .returning();
  return failed;
}

/** Clears isNew after the first credited payment; the organization as it is now. */
export async function clearIsNew(tx: Executor, organizationId: string) {
  const [organization] = await tx
    .update(organizations)
    .set({ isNew: false })
    .where(eq(organizations.id, organizationId))
    .returning();
  return organization;
}

/** Re-arms auto recharge once the balance is back at or above its threshold. */
export async function rearmAutoRecharge(tx: Executor, organizationId: string, balanceMicros: bigint) {
  await tx
    .update(autoRechargeSettings)
    .set({ armed: true })
    .where(
      and(
        eq(autoRechargeSettings.organizationId, organizationId),
        sql`${autoRechargeSettings.thresholdMicros} <= ${balanceMicros}`,
      ),
    );
}

/**
 * Disarms an enabled, armed setting whose threshold is above the balance, in one conditional update:
 * of many concurrent callers exactly one gets the row back.
 */
export async function disarmAutoRechargeBelowThreshold(db: Executor, organizationId: string) {
  const [setting] = await db
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
  return setting;
}

export function listPendingPayments(
  db: Executor,
  input: { provider: PaymentRow["provider"]; olderThan: Date; limit: number },
) {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, "pending"),
        eq(payments.provider, input.provider),
        lt(payments.createdAt, input.olderThan),
      ),
    )
    .orderBy(payments.createdAt)
    .limit(input.limit);
}

import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { ledgerEntries, organizations, payments } from "../../db/schema";
import type { PaymentRow } from "./payments.store";

/** Data access of Stripe's webhook events: finding our payment for a Stripe object, refunds taken back. */

export async function findPayment(db: Executor, paymentId: string): Promise<PaymentRow | undefined> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return payment;
}

/** Our Stripe payment whose PaymentIntent is `intentId`. */
export async function findStripePaymentByIntent(
  db: Executor,
  intentId: string,
): Promise<PaymentRow | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, "stripe"), eq(payments.providerPaymentId, intentId)));
  return payment;
}

export async function organizationExists(db: Executor, organizationId: string): Promise<boolean> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return rows.length > 0;
}

/** What the refunds recorded under references starting with `prefix` took back, in micro-dollars. */
export async function refundedUnderPrefix(tx: Executor, prefix: string): Promise<bigint> {
  const [taken] = await tx
    .select({ total: sql<string>`coalesce(-sum(${ledgerEntries.amountMicros}), 0)` })
    .from(ledgerEntries)
    .where(
      and(eq(ledgerEntries.kind, "payment-refund"), sql`starts_with(${ledgerEntries.reference}, ${prefix})`),
    );
  return BigInt(taken?.total ?? 0);
}

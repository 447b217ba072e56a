import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { paymentAccounts } from "../../db/schema";

/** Data access of the Stripe provider: the Stripe customer that stands for each organization. */

export async function findStripeCustomerId(
  db: Executor,
  organizationId: string,
): Promise<string | undefined> {
  const rows = await db
    .select()
    .from(paymentAccounts)
    .where(and(eq(paymentAccounts.organizationId, organizationId), eq(paymentAccounts.provider, "stripe")))
    .limit(1);
  return rows[0]?.customerId;
}

/** Records the organization's Stripe customer; a customer recorded first (a concurrent setup) stays. */
export async function insertStripeCustomer(
  db: Executor,
  organizationId: string,
  customerId: string,
): Promise<void> {
  await db
    .insert(paymentAccounts)
    .values({ organizationId, provider: "stripe", customerId })
    .onConflictDoNothing();
}

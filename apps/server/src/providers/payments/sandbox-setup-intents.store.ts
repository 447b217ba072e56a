import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { sandboxSetupIntents } from "../../db/schema";

/** Data access of the sandbox payments provider: its setup intents, which also hold the saved cards. */

export type SandboxSetupIntentRow = typeof sandboxSetupIntents.$inferSelect;

export async function insertSetupIntent(
  db: Executor,
  values: typeof sandboxSetupIntents.$inferInsert,
): Promise<void> {
  await db.insert(sandboxSetupIntents).values(values);
}

/** The intent whose client secret hashes to `clientSecretHash`. */
export async function findSetupIntentBySecret(
  db: Executor,
  id: string,
  clientSecretHash: string,
): Promise<SandboxSetupIntentRow | undefined> {
  const rows = await db
    .select()
    .from(sandboxSetupIntents)
    .where(and(eq(sandboxSetupIntents.id, id), eq(sandboxSetupIntents.clientSecretHash, clientSecretHash)))
    .limit(1);
  return rows[0];
}

export async function updateSetupIntent(
  db: Executor,
  id: string,
  values: Partial<typeof sandboxSetupIntents.$inferInsert>,
): Promise<void> {
  await db.update(sandboxSetupIntents).set(values).where(eq(sandboxSetupIntents.id, id));
}

/** The organization's intent `id`. */
export async function findOrganizationSetupIntent(
  db: Executor,
  organizationId: string,
  id: string,
): Promise<SandboxSetupIntentRow | undefined> {
  const rows = await db
    .select()
    .from(sandboxSetupIntents)
    .where(and(eq(sandboxSetupIntents.id, id), eq(sandboxSetupIntents.organizationId, organizationId)))
    .limit(1);
  return rows[0];
}

/** The card saved under the payment method id a confirmed intent issued. */
export async function findCardOfPaymentMethod(db: Executor, paymentMethodId: string) {
  const rows = await db
    .select({ card: sandboxSetupIntents.card })
    .from(sandboxSetupIntents)
    .where(eq(sandboxSetupIntents.paymentMethodId, paymentMethodId))
    .limit(1);
  return rows[0]?.card;
}

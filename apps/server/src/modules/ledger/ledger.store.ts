import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type LedgerEntryKind, ledgerEntries, organizations } from "../../db/schema";

/** Data access of the ledger: its entries and the balance cached on the organization's row. */

export async function appendEntry(
  tx: Executor,
  entry: { organizationId: string; kind: LedgerEntryKind; amountMicros: bigint; reference: string },
): Promise<boolean> {
  const inserted = await tx
    .insert(ledgerEntries)
    .values(entry)
    .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.reference] })
    .returning({ id: ledgerEntries.id });
  return inserted.length > 0;
}

export async function addToBalance(
  tx: Executor,
  organizationId: string,
  amountMicros: bigint,
): Promise<void> {
  if (amountMicros === 0n) return;
  await tx
    .update(organizations)
    .set({ balanceMicros: sql`${organizations.balanceMicros} + ${amountMicros}` })
    .where(eq(organizations.id, organizationId));
}

export async function findReservation(tx: Executor, reference: string) {
  // Locking the reservation row serializes settle and refund of the same call across processes.
  const rows = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, "reservation"), eq(ledgerEntries.reference, reference)))
    .for("update")
    .limit(1);
  return rows[0];
}

export async function hasEntry(tx: Executor, kind: LedgerEntryKind, reference: string): Promise<boolean> {
  const rows = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, kind), eq(ledgerEntries.reference, reference)))
    .limit(1);
  return rows.length > 0;
}

/** The ledger's own sum, to check the cached balance against. */
export async function ledgerBalance(db: Executor, organizationId: string): Promise<bigint> {
  const rows = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.organizationId, organizationId));
  return BigInt(rows[0]?.total ?? 0);
}

export async function cachedBalance(db: Executor, organizationId: string): Promise<bigint> {
  const rows = await db
    .select({ balanceMicros: organizations.balanceMicros })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return rows[0]?.balanceMicros ?? 0n;
}

/**
 * Reservations from between `newerThan` and `olderThan` whose reference starts with `referencePrefix`
 * and that have neither a settlement nor a refund: calls a crash left open, the sweeper's to refund.
 */
export async function findOpenCallReservations(
  db: Executor,
  input: { olderThan: Date; newerThan: Date; referencePrefix: string; limit: number },
) {
  return db
    .select({ reference: ledgerEntries.reference })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, "reservation"),
        sql`${ledgerEntries.createdAt} < ${input.olderThan}`,
        sql`${ledgerEntries.createdAt} > ${input.newerThan}`,
        sql`${ledgerEntries.reference} like ${`${input.referencePrefix}%`}`,
        sql`not exists (select 1 from ${ledgerEntries} closing
          where closing.reference = ${ledgerEntries.reference}
            and closing.kind in ('settlement', 'refund'))`,
      ),
    )
    .limit(input.limit);
}

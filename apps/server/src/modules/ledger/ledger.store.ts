import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  type CallLedgerEntryKind,
  ledgerEntries,
  organizations,
  type ReferencedLedgerEntryKind,
} from "../../db/schema";

/** Data access of the ledger: its entries and the balance cached on the organization's row. */

/** Appends a payment's, dispute's or grant's entry, once per `(kind, reference)`; false when it exists. */
export async function appendEntry(
  tx: Executor,
  entry: { organizationId: string; kind: ReferencedLedgerEntryKind; amountMicros: bigint; reference: string },
): Promise<boolean> {
  const inserted = await tx
    .insert(ledgerEntries)
    .values(entry)
    .onConflictDoNothing({
      target: [ledgerEntries.kind, ledgerEntries.reference],
      where: sql`${ledgerEntries.reference} is not null`,
    })
    .returning({ kind: ledgerEntries.kind });
  return inserted.length > 0;
}

/** Appends a feature call's entry, once per `(request_id, kind)`; false when it exists. */
export async function appendCallEntry(
  tx: Executor,
  entry: { organizationId: string; kind: CallLedgerEntryKind; amountMicros: bigint; requestId: string },
): Promise<boolean> {
  const inserted = await tx
    .insert(ledgerEntries)
    .values(entry)
    .onConflictDoNothing({
      target: [ledgerEntries.requestId, ledgerEntries.kind],
      where: sql`${ledgerEntries.requestId} is not null`,
    })
    .returning({ kind: ledgerEntries.kind });
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

/** The call's reservation, locked: that serializes settle and refund of the same call across processes. */
export async function findReservation(tx: Executor, requestId: string) {
  const rows = await tx
    .select({ organizationId: ledgerEntries.organizationId, amountMicros: ledgerEntries.amountMicros })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.requestId, requestId), eq(ledgerEntries.kind, "reservation")))
    .for("update")
    .limit(1);
  return rows[0];
}

/** Whether the call has an entry of this kind. */
export async function hasCallEntry(
  tx: Executor,
  kind: CallLedgerEntryKind,
  requestId: string,
): Promise<boolean> {
  const rows = await tx
    .select({ kind: ledgerEntries.kind })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.requestId, requestId), eq(ledgerEntries.kind, kind)))
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
 * Calls whose reservation is from between `newerThan` and `olderThan` and has neither a settlement nor
 * a refund: calls a crash left open, the sweeper's to end. The partial index on reservations' times
 * finds the candidates, `(request_id, kind)` answers whether each was closed.
 */
export async function findOpenCallReservations(
  db: Executor,
  input: { olderThan: Date; newerThan: Date; limit: number },
): Promise<{ requestId: string }[]> {
  const rows = await db
    .select({ requestId: ledgerEntries.requestId })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, "reservation"),
        sql`${ledgerEntries.createdAt} < ${input.olderThan}`,
        sql`${ledgerEntries.createdAt} > ${input.newerThan}`,
        sql`not exists (select 1 from ${ledgerEntries} closing
          where closing.request_id = ${ledgerEntries.requestId}
            and closing.kind in ('settlement', 'refund'))`,
      ),
    )
    .limit(input.limit);
  // The check constraint gives every reservation its request id.
  return rows.flatMap(({ requestId }) => (requestId ? [{ requestId }] : []));
}

import { and, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client";
import { type LedgerEntryKind, ledgerEntries, organizations } from "../../db/schema";

/**
 * The only code that moves money. Every operation appends one ledger entry and adjusts the cached
 * balance in the same transaction; the unique (kind, reference) index makes each idempotent.
 */

async function appendEntry(
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

async function addToBalance(tx: Executor, organizationId: string, amountMicros: bigint): Promise<void> {
  if (amountMicros === 0n) return;
  await tx
    .update(organizations)
    .set({ balanceMicros: sql`${organizations.balanceMicros} + ${amountMicros}` })
    .where(eq(organizations.id, organizationId));
}

export type ReserveResult =
  | { reserved: true; balanceMicros: bigint }
  | { reserved: false; reason: "insufficient-balance" | "duplicate" };

/**
 * Takes `amountMicros` from the balance if, and only if, the balance covers it: one conditional
 * UPDATE, so concurrent reservations can never drive the balance below zero (checking first and
 * deducting later is how gateways get oversold).
 *
 * `withReservation` runs in the same transaction once the money is taken (a feature call writes its
 * request row there, so no crash can leave a reservation without the row the sweeper refunds by);
 * when it throws, the reservation is rolled back and the error propagates. The organization's row
 * stays locked until the transaction ends, so checks made there (calls in flight) are serialized per
 * organization across every server process.
 */
export async function reserve(
  db: Database,
  input: { organizationId: string; amountMicros: bigint; reference: string },
  withReservation?: (tx: Executor) => Promise<void>,
): Promise<ReserveResult> {
  if (input.amountMicros < 0n) throw new RangeError("a reservation cannot be negative");
  return db
    .transaction(async (tx) => {
      const debited = await tx
        .update(organizations)
        .set({ balanceMicros: sql`${organizations.balanceMicros} - ${input.amountMicros}` })
        .where(
          and(
            eq(organizations.id, input.organizationId),
            sql`${organizations.balanceMicros} >= ${input.amountMicros}`,
          ),
        )
        .returning({ balanceMicros: organizations.balanceMicros });
      const row = debited[0];
      if (!row) return { reserved: false, reason: "insufficient-balance" } as const;
      const appended = await appendEntry(tx, {
        organizationId: input.organizationId,
        kind: "reservation",
        amountMicros: -input.amountMicros,
        reference: input.reference,
      });
      // Same reference reserved before: throwing rolls this debit back.
      if (!appended) throw new DuplicateReference();
      if (withReservation) await withReservation(tx);
      return { reserved: true, balanceMicros: row.balanceMicros } as const;
    })
    .catch((error: unknown) => {
      if (error instanceof DuplicateReference) return { reserved: false, reason: "duplicate" } as const;
      throw error;
    });
}

class DuplicateReference extends Error {}

async function findReservation(tx: Executor, reference: string) {
  // Locking the reservation row serializes settle and refund of the same call across processes.
  const rows = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, "reservation"), eq(ledgerEntries.reference, reference)))
    .for("update")
    .limit(1);
  return rows[0];
}

async function hasEntry(tx: Executor, kind: LedgerEntryKind, reference: string): Promise<boolean> {
  const rows = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, kind), eq(ledgerEntries.reference, reference)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Gives a reservation back (the call failed). False when already refunded or settled, or unknown.
 * `onRefunded` runs in the same transaction when this call made the refund (the key's spend goes back).
 */
export async function refund(
  db: Database,
  reference: string,
  onRefunded?: (tx: Executor) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const reservation = await findReservation(tx, reference);
    if (!reservation || (await hasEntry(tx, "settlement", reference))) return false;
    const amountMicros = -reservation.amountMicros;
    const appended = await appendEntry(tx, {
      organizationId: reservation.organizationId,
      kind: "refund",
      amountMicros,
      reference,
    });
    if (appended) {
      await addToBalance(tx, reservation.organizationId, amountMicros);
      if (onRefunded) await onRefunded(tx);
    }
    return appended;
  });
}

/**
 * Makes a reservation final (the call succeeded). `onSettled` runs in the same transaction, which is
 * where the usage rollup is written. False when already settled or refunded, or unknown.
 */
export async function settle(
  db: Database,
  reference: string,
  onSettled?: (tx: Executor, reservation: { organizationId: string; amountMicros: bigint }) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const reservation = await findReservation(tx, reference);
    if (!reservation || (await hasEntry(tx, "refund", reference))) return false;
    const appended = await appendEntry(tx, {
      organizationId: reservation.organizationId,
      kind: "settlement",
      amountMicros: 0n,
      reference,
    });
    if (appended && onSettled) {
      await onSettled(tx, {
        organizationId: reservation.organizationId,
        amountMicros: -reservation.amountMicros,
      });
    }
    return appended;
  });
}

/**
 * Adds money from a payment (or gives back funds a dispute had withdrawn), once per reference. Runs
 * inside the caller's transaction.
 */
export async function credit(
  tx: Executor,
  input: {
    organizationId: string;
    amountMicros: bigint;
    reference: string;
    kind?: Extract<LedgerEntryKind, "credit" | "dispute-reversal">;
  },
): Promise<boolean> {
  if (input.amountMicros <= 0n) throw new RangeError("a credit must be positive");
  const appended = await appendEntry(tx, { ...input, kind: input.kind ?? "credit" });
  if (appended) await addToBalance(tx, input.organizationId, input.amountMicros);
  return appended;
}

/**
 * Takes back money the card network returned to the cardholder (a refund, a dispute), once per
 * reference. Unlike a reservation it does not need the balance to cover it: the money is already
 * gone, and a balance below zero simply refuses further calls until a recharge.
 */
export async function debit(
  tx: Executor,
  input: {
    organizationId: string;
    amountMicros: bigint;
    reference: string;
    kind: Extract<LedgerEntryKind, "payment-refund" | "dispute">;
  },
): Promise<boolean> {
  if (input.amountMicros <= 0n) throw new RangeError("a debit must be positive");
  const appended = await appendEntry(tx, { ...input, amountMicros: -input.amountMicros });
  if (appended) await addToBalance(tx, input.organizationId, -input.amountMicros);
  return appended;
}

/** Whether an entry exists under this reference. */
export async function hasLedgerEntry(
  tx: Executor,
  kind: LedgerEntryKind,
  reference: string,
): Promise<boolean> {
  return hasEntry(tx, kind, reference);
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
 * Gives back a settled charge whose work failed later (a training the model server reports failed),
 * once: the refund entry shares the reservation's reference, and `(kind, reference)` is unique.
 * `onRefunded` runs in the same transaction (the request row and the usage rollup follow the money).
 * False when the reference was never settled or was already refunded.
 */
export async function refundSettled(
  db: Database,
  reference: string,
  onRefunded?: (tx: Executor, refunded: { organizationId: string; amountMicros: bigint }) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const reservation = await findReservation(tx, reference);
    if (!reservation || !(await hasEntry(tx, "settlement", reference))) return false;
    const amountMicros = -reservation.amountMicros;
    const appended = await appendEntry(tx, {
      organizationId: reservation.organizationId,
      kind: "refund",
      amountMicros,
      reference,
    });
    if (!appended) return false;
    await addToBalance(tx, reservation.organizationId, amountMicros);
    if (onRefunded) await onRefunded(tx, { organizationId: reservation.organizationId, amountMicros });
    return true;
  });
}

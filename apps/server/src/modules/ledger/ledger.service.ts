import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client";
import { type LedgerEntryKind, ledgerEntries, organizations } from "../../db/schema";

/**
 * The code that moves money, with the feature call's own statements in features/call-ledger.store.ts
 * (decision 016). Every operation appends one ledger entry and adjusts the cached balance in the same
 * transaction; the unique (kind, reference) index makes each idempotent.
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
      // The debit and its entry in one statement (one round trip): the entry is written only from the
      // row the conditional update returned, so a short balance writes nothing.
      const debit = tx
        .update(organizations)
        .set({ balanceMicros: sql`${organizations.balanceMicros} - ${input.amountMicros}` })
        .where(
          and(
            eq(organizations.id, input.organizationId),
            sql`${organizations.balanceMicros} >= ${input.amountMicros}`,
          ),
        )
        .returning({ balanceMicros: organizations.balanceMicros });
      const [row] = rowsOf<{ balance: string | number | bigint | null; appended: number }>(
        await tx.execute(sql`with debited as ${debit},
          entry as (insert into ${ledgerEntries} (organization_id, kind, amount_micros, reference)
            select ${input.organizationId}::uuid, 'reservation', ${-input.amountMicros}::bigint, ${input.reference}::text
            from debited
            on conflict (kind, reference) do nothing
            returning id)
          select (select balance_micros from debited) as balance, (select count(*)::int from entry) as appended`),
      );
      if (row?.balance === null || row?.balance === undefined) {
        return { reserved: false, reason: "insufficient-balance" } as const;
      }
      // Same reference reserved before: throwing rolls this debit back.
      if (Number(row.appended) === 0) throw new DuplicateReference();
      if (withReservation) await withReservation(tx);
      return { reserved: true, balanceMicros: BigInt(row.balance) } as const;
    })
    .catch((error: unknown) => {
      if (error instanceof DuplicateReference) return { reserved: false, reason: "duplicate" } as const;
      throw error;
    });
}

/** The rows of a raw statement: both drivers answer `execute` with `rows` (the shared type leaves it untyped). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
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
    if (!reservation) return false;
    const [row] = rowsOf<{ appended: number }>(
      await tx.execute(
        sql`with entry as (${settlementEntry(reservation.organizationId, reference)}) select count(*)::int as appended from entry`,
      ),
    );
    const appended = Number(row?.appended ?? 0) > 0;
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
 * The settlement entry as a statement to run as a CTE (`returning id`): written unless the call was
 * refunded. It must run after the reservation's row is locked, in a later statement, so that its
 * snapshot sees a refund committed while it waited for the lock.
 */
function settlementEntry(organizationId: string, reference: string) {
  return sql`insert into ${ledgerEntries} (organization_id, kind, amount_micros, reference)
    select ${organizationId}::uuid, 'settlement', 0, ${reference}::text
    where not exists (select 1 from ${ledgerEntries} refunded
      where refunded.kind = 'refund' and refunded.reference = ${reference})
    on conflict (kind, reference) do nothing
    returning id`;
}

/**
 * {@link settle} in two statements after `begin`: the reservation's row locked, then one statement
 * built by `along` around the settlement entry (to run as a CTE; it returns `id` when written), in
 * which the caller writes what follows from the settlement (the request row, the usage rollup) and
 * reads what it answers with. That statement must return at least one row exactly when the settlement
 * was written (select from the CTE); then `after` runs in the same transaction and the rows come back.
 * No row (already settled or refunded, or unknown) rolls everything back and answers an empty list.
 */
export async function settleAlong<T>(
  db: Database,
  reference: string,
  along: (settlement: SQL, reservation: { organizationId: string; amountMicros: bigint }) => SQL,
  after?: (tx: Executor, rows: T[]) => Promise<void>,
): Promise<T[]> {
  return db
    .transaction(async (tx) => {
      const reservation = await findReservation(tx, reference);
      if (!reservation) return [];
      const rows = rowsOf<T>(
        await tx.execute(
          along(settlementEntry(reservation.organizationId, reference), {
            organizationId: reservation.organizationId,
            amountMicros: -reservation.amountMicros,
          }),
        ),
      );
      if (rows.length === 0) throw new NotSettled();
      if (after) await after(tx, rows);
      return rows;
    })
    .catch((error: unknown) => {
      if (error instanceof NotSettled) return [];
      throw error;
    });
}

class NotSettled extends Error {}

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

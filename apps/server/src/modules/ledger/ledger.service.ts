import type { Database, Executor } from "../../db/client";
import type { LedgerEntryKind } from "../../db/schema";
import { addToBalance, appendEntry, findReservation, hasEntry } from "./ledger.store";

export { cachedBalance, ledgerBalance } from "./ledger.store";

/**
 * The code that moves money, with the feature call's own statements beside it in call-ledger.store.ts
 * (decisions 016 and 019): the only module that writes balances and ledger entries (layout.test.ts
 * holds everything else to that). Every operation appends one ledger entry and adjusts the cached
 * balance in the same transaction; the unique (kind, reference) index makes each idempotent.
 */

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
export const hasLedgerEntry = hasEntry;

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

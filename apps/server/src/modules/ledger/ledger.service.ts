import type { Database, Executor } from "../../db/client";
import type { LedgerEntryKind } from "../../db/schema";
import { addToBalance, appendCallEntry, appendEntry, findReservation, hasCallEntry } from "./ledger.store";

export { cachedBalance, ledgerBalance } from "./ledger.store";

/**
 * The code that moves money, with the feature call's own statements beside it in call-ledger.store.ts
 * (decisions 016 and 019): the only module that writes balances and ledger entries (layout.test.ts
 * holds everything else to that). Every operation appends one ledger entry and adjusts the cached
 * balance in the same transaction; a unique index makes each idempotent: `(kind, reference)` for
 * payments, disputes and grants, `(request_id, kind)` for a call's entries.
 */

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

/**
 * Gives back a settled charge whose work failed later (a training the model server reports failed),
 * once: the call has one refund at most, `(request_id, kind)` being unique.
 * `onRefunded` runs in the same transaction (the request row and the usage rollup follow the money).
 * False when the call was never settled or was already refunded.
 */
export async function refundSettled(
  db: Database,
  requestId: string,
  onRefunded?: (tx: Executor, refunded: { organizationId: string; amountMicros: bigint }) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const reservation = await findReservation(tx, requestId);
    if (!reservation || !(await hasCallEntry(tx, "settlement", requestId))) return false;
    const amountMicros = -reservation.amountMicros;
    const appended = await appendCallEntry(tx, {
      organizationId: reservation.organizationId,
      kind: "refund",
      amountMicros,
      requestId,
    });
    if (!appended) return false;
    await addToBalance(tx, reservation.organizationId, amountMicros);
    if (onRefunded) await onRefunded(tx, { organizationId: reservation.organizationId, amountMicros });
    return true;
  });
}

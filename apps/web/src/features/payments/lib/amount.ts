import { MAX_RECHARGE_USD, MIN_RECHARGE_USD, RECHARGE_ABOVE_MAXIMUM, roundUsdToCents } from "@prism/contract";

function amountOf(value: number | string | null | undefined): number {
  return typeof value === "number" ? value : Number.parseFloat(String(value ?? ""));
}

/**
 * A recharge amount, auto-recharge threshold or amount below 20 dollars (or left empty) is raised to
 * 20 when the field is left; cents are kept. An amount above the maximum stays as typed: it is refused
 * with its reason (`rechargeAmountError`), never silently lowered.
 */
export function clampRechargeAmount(value: number | string | null | undefined): number {
  const amount = amountOf(value);
  if (!Number.isFinite(amount) || amount < MIN_RECHARGE_USD) return MIN_RECHARGE_USD;
  return roundUsdToCents(amount);
}

/** Whether leaving the field raises this value to the minimum. */
export function isBelowRechargeMinimum(value: number | string | null | undefined): boolean {
  const amount = amountOf(value);
  return !Number.isFinite(amount) || amount < MIN_RECHARGE_USD;
}

/** Why an amount cannot be sent: only an amount above the maximum (a smaller one is raised). */
export function rechargeAmountError(value: number | string | null | undefined): string | null {
  return amountOf(value) > MAX_RECHARGE_USD ? RECHARGE_ABOVE_MAXIMUM : null;
}

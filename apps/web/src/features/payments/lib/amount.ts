import { MAX_RECHARGE_USD, MIN_RECHARGE_USD, roundUsdToCents } from "@prism/contract";

/**
 * A recharge amount, auto-recharge threshold or amount below 20 dollars (or left empty)
 * is raised to 20 when the field is left. Cents are kept; the server's upper bound applies too.
 */
export function clampRechargeAmount(value: number | string | null | undefined): number {
  const amount = typeof value === "number" ? value : Number.parseFloat(String(value ?? ""));
  if (!Number.isFinite(amount) || amount < MIN_RECHARGE_USD) return MIN_RECHARGE_USD;
  return Math.min(MAX_RECHARGE_USD, roundUsdToCents(amount));
}

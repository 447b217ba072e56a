import type { Database, Executor } from "../../db/client";
import { hashApiKey, isWellFormedApiKey } from "./api-key-format";
import {
  findActiveKeyByHash,
  findKeySpendRow,
  keySpendCharge,
  monthKeyOf,
  touchKeyLastUsed,
} from "./api-keys.store";

/*
 * The runtime side of API keys: authenticating a key on each call and checking and counting its spend
 * caps. The console's key operations (create, list, rename, limits, delete) are in api-keys.service.ts.
 */

/** `last used` is written at most this often per key, so busy keys do not turn every call into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The first moment of the calendar month (UTC) that `now` is in: spend caps reset then. */
export function monthStartOf(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The limits of an authenticated key, as the gateway checks them (null: none). */
export interface ApiKeyRules {
  allowedEndpoints: string[] | null;
  monthlySpendCapMicros: bigint | null;
  lifetimeSpendCapMicros: bigint | null;
  allowedIps: string[] | null;
  requestsPerMinute: number | null;
  /** The spend counters as read with the key (see chargeKeySpend), for the check before the body. */
  spentMonth: string | null;
  spentMonthMicros: bigint;
  spentLifetimeMicros: bigint;
}

/** The key's organization's money state, read with the key (see findActiveKeyByHash). */
export interface KeyOrganizationState {
  balanceMicros: bigint;
  isNew: boolean;
  callsInFlight: number;
  /** Only read when the authentication asked for it; false otherwise. */
  budgetReached: boolean;
}

export interface ApiKeyPrincipal {
  apiKeyId: string;
  projectId: string;
  organizationId: string;
  rules: ApiKeyRules;
  organizationState: KeyOrganizationState;
}

export type ApiKeyAuthentication =
  | { status: "valid"; principal: ApiKeyPrincipal }
  | { status: "expired" }
  | { status: "invalid" };

export type BrokenCap = { cap: "monthly" | "lifetime"; capMicros: bigint };

/** Which cap a call of `priceMicros` would break, judged from the counters read with the key. */
export function capBrokenBy(
  rules: ApiKeyRules,
  priceMicros: bigint,
  now = new Date(),
): BrokenCap | undefined {
  const month = rules.spentMonth === monthKeyOf(now) ? rules.spentMonthMicros : 0n;
  if (rules.monthlySpendCapMicros !== null && month + priceMicros > rules.monthlySpendCapMicros) {
    return { cap: "monthly", capMicros: rules.monthlySpendCapMicros };
  }
  if (
    rules.lifetimeSpendCapMicros !== null &&
    rules.spentLifetimeMicros + priceMicros > rules.lifetimeSpendCapMicros
  ) {
    return { cap: "lifetime", capMicros: rules.lifetimeSpendCapMicros };
  }
  return undefined;
}

/**
 * Adds `priceMicros` to the key's spend if, and only if, it stays within the key's caps: one
 * conditional UPDATE in the reservation's transaction, so concurrent calls of the key can never
 * overshoot a cap (the row stays locked until the reservation commits or rolls back). Keys without a
 * cap are left alone. Returns the cap the call would break, if any.
 */
export async function chargeKeySpend(
  tx: Executor,
  apiKeyId: string,
  priceMicros: bigint,
  now = new Date(),
): Promise<BrokenCap | undefined> {
  const charged = await keySpendCharge(tx, apiKeyId, priceMicros, now);
  if (charged.length > 0) return undefined;
  return keyCapBrokenBy(tx, apiKeyId, priceMicros, now);
}

/** Which cap a call of `priceMicros` breaks, read from the key's row (after its charge was refused). */
export async function keyCapBrokenBy(
  tx: Executor,
  apiKeyId: string,
  priceMicros: bigint,
  now = new Date(),
): Promise<BrokenCap | undefined> {
  const row = await findKeySpendRow(tx, apiKeyId);
  if (!row) return undefined;
  return capBrokenBy(
    { ...row, allowedEndpoints: null, allowedIps: null, requestsPerMinute: null },
    priceMicros,
    now,
  );
}

/**
 * Authenticates a Bearer key for the public API: well-formed, known, not revoked, not expired, and its
 * project and organization still active. Refreshes `last used` at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now = new Date(),
  options: { readBudgetStop?: boolean } = {},
): Promise<ApiKeyAuthentication> {
  if (!isWellFormedApiKey(key)) return { status: "invalid" };
  const row = await findActiveKeyByHash(db, hashApiKey(key), options.readBudgetStop);
  if (!row) return { status: "invalid" };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { status: "expired" };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchKeyLastUsed(db, row.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
  }
  return {
    status: "valid",
    principal: {
      apiKeyId: row.id,
      projectId: row.projectId,
      organizationId: row.organizationId,
      organizationState: {
        ...row.organizationState,
        budgetReached: row.organizationState.budgetReached === true,
      },
      rules: {
        allowedEndpoints: row.allowedEndpoints,
        monthlySpendCapMicros: row.monthlySpendCapMicros,
        lifetimeSpendCapMicros: row.lifetimeSpendCapMicros,
        allowedIps: row.allowedIps,
        requestsPerMinute: row.requestsPerMinute,
        spentMonth: row.spentMonth,
        spentMonthMicros: row.spentMonthMicros,
        spentLifetimeMicros: row.spentLifetimeMicros,
      },
    },
  };
}

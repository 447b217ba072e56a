import { z } from "zod";
import { FEATURES } from "./catalog";
import { isoDateTimeSchema } from "./fields";
import {
  API_KEY_MAX_ALLOWED_IPS,
  API_KEY_MAX_REQUESTS_PER_MINUTE,
  API_KEY_MAX_SPEND_CAP_USD,
  isWholeCents,
} from "./limits";

/**
 * What an API key may do (all optional; a key without limits, as every key made before them, may call
 * every feature, from anywhere, without a cap or an expiry). Checked on every call before its body is
 * read; the spend caps are checked again in the transaction that reserves the price.
 */

/** The message for an allowlist entry that is not an address or a range (checked in `@prism/contract/ip`). */
export const ALLOWED_IP_INVALID =
  "Enter IP addresses or CIDR ranges (203.0.113.7, 203.0.113.0/24, 2001:db8::/32).";

const featureEndpoints = FEATURES.map((feature) => feature.endpoint) as [string, ...string[]];

const spendCapSchema = z
  .number()
  .finite()
  .positive("A spend cap must be more than $0.")
  .max(API_KEY_MAX_SPEND_CAP_USD)
  .refine(isWholeCents, "A spend cap must be in whole cents.");

export const apiKeyLimitsSchema = z.object({
  /** Feature endpoints the key may call; null: all of them. */
  endpoints: z.array(z.enum(featureEndpoints)).min(1, "Choose at least one feature.").nullable(),
  /** Dollars the key may spend per calendar month (UTC); null: no cap. */
  monthlySpendCap: spendCapSchema.nullable(),
  /** Dollars the key may spend over its life; null: no cap. */
  lifetimeSpendCap: spendCapSchema.nullable(),
  /** After this moment the key answers 401 `api-key-expired`; null: never. */
  expiresAt: isoDateTimeSchema.nullable(),
  /**
   * Addresses and CIDR ranges the key may be used from; null: anywhere. Each entry's syntax is checked
   * by `allowedIpsSchema` of `@prism/contract/ip`, which the first page must not download.
   */
  allowedIps: z
    .array(z.string().trim().min(1, ALLOWED_IP_INVALID))
    .min(1, "List at least one address.")
    .max(API_KEY_MAX_ALLOWED_IPS)
    .nullable(),
  /** Requests per minute for this key, on top of the server-wide limit; null: only that one. */
  requestsPerMinute: z.number().int().min(1).max(API_KEY_MAX_REQUESTS_PER_MINUTE).nullable(),
});
export type ApiKeyLimits = z.infer<typeof apiKeyLimitsSchema>;

/** The limits of a key that has none. */
export const NO_API_KEY_LIMITS: ApiKeyLimits = {
  endpoints: null,
  monthlySpendCap: null,
  lifetimeSpendCap: null,
  expiresAt: null,
  allowedIps: null,
  requestsPerMinute: null,
};

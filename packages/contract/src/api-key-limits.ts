import ipaddr from "ipaddr.js";
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

/** An IPv4 or IPv6 address, or a CIDR range of either (`203.0.113.0/24`, `2001:db8::/32`). */
export function isIpOrCidr(value: string): boolean {
  const text = value.trim();
  if (text.includes("/")) return ipaddr.isValidCIDR(text);
  return ipaddr.isValid(text);
}

/**
 * Whether `address` (as the server sees the client: IPv4-mapped IPv6 is taken as its IPv4) falls in one
 * of `allowed` (addresses and CIDR ranges).
 */
export function isIpAllowed(address: string, allowed: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const client = ipaddr.process(address);
  return allowed.some((entry) => {
    try {
      if (entry.includes("/")) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return range.kind() === client.kind() && client.match(range, bits);
      }
      const single = ipaddr.process(entry);
      return single.kind() === client.kind() && single.toNormalizedString() === client.toNormalizedString();
    } catch {
      return false;
    }
  });
}

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
  /** Addresses and CIDR ranges the key may be used from; null: anywhere. */
  allowedIps: z
    .array(
      z
        .string()
        .trim()
        .refine(
          isIpOrCidr,
          "Enter IP addresses or CIDR ranges (203.0.113.7, 203.0.113.0/24, 2001:db8::/32).",
        ),
    )
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

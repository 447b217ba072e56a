import ipaddr from "ipaddr.js";
import { z } from "zod";
import { ALLOWED_IP_INVALID } from "./api-key-limits";

/**
 * Address parsing for API keys' IP allowlists, kept out of the contract's main entry (`@prism/contract/ip`):
 * ipaddr.js is needed only by the server, which matches every call's address, and by the key limits
 * screen, so the console's first page does not download it.
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

/**
 * The entries of a key's allowlist checked as addresses and ranges; `apiKeyLimitsSchema` checks only
 * their number. Whoever accepts limits applies both.
 */
export const allowedIpsSchema = z
  .array(z.string().trim().refine(isIpOrCidr, ALLOWED_IP_INVALID))
  .nullable()
  .optional();

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Webhook URLs are typed by customers, so in production the server must not become their way into
 * our own network: an address is only called when it is ordinary public unicast, checked on the
 * address the connection actually uses (at send time, after DNS), so a name that resolves to a
 * private address, or starts to later (DNS rebinding), is refused as well.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

export class TargetRefusedError extends Error {
  constructor(readonly address: string) {
    super(`refused address ${address}`);
  }
}

/** Refuses a URL whose host is written as a private IP literal (the connection skips DNS for those). */
export function checkLiteralHost(hostname: string, allowPrivate: boolean): void {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (!allowPrivate && isIP(bare) !== 0 && !isPublicAddress(bare)) throw new TargetRefusedError(bare);
}

/** A DNS lookup for http.request that refuses non-public answers unless private targets are allowed. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, "", 4);
        return;
      }
      const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      const first = addresses[0];
      if (refused || !first) {
        callback(new TargetRefusedError(refused?.address ?? hostname), "", 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

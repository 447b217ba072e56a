import { type ApiKeyLimits, featureByEndpoint } from "@prism/contract";
import { formatDateTime, formatUsd } from "./format";

/** The key's limits as short labels for the keys table and the audit log ("No limits" when it has none). */
export function summarizeLimits(limits: ApiKeyLimits): string[] {
  const labels: string[] = [];
  if (limits.endpoints) {
    labels.push(
      limits.endpoints.length === 1
        ? (featureByEndpoint(limits.endpoints[0] ?? "")?.name ?? "1 feature")
        : `${limits.endpoints.length} features`,
    );
  }
  if (limits.monthlySpendCap !== null) labels.push(`${formatUsd(limits.monthlySpendCap)}/month`);
  if (limits.lifetimeSpendCap !== null) labels.push(`${formatUsd(limits.lifetimeSpendCap)} total`);
  if (limits.expiresAt) labels.push(`Until ${formatDateTime(limits.expiresAt)}`);
  if (limits.allowedIps) {
    labels.push(
      limits.allowedIps.length === 1 ? (limits.allowedIps[0] ?? "") : `${limits.allowedIps.length} IP ranges`,
    );
  }
  if (limits.requestsPerMinute !== null) labels.push(`${limits.requestsPerMinute}/min`);
  return labels.length === 0 ? ["No limits"] : labels;
}

import {
  type ApiKeyLimits,
  type AuditEntry,
  apiKeyLimitsSchema,
  featureByEndpoint,
  permissionsSchema,
  summarizePermissions,
} from "@prism/contract";
import { summarizeLimits } from "../../../lib/api-key-limits";
import { formatDateTime, formatUsd } from "../../../lib/format";

/** One changed field of an audit entry, as a person reads it. */
export interface AuditChange {
  label: string;
  /** Absent when the field came into being (a creation). */
  before?: string;
  /** Absent when the field went away (a deletion). */
  after?: string;
}

/** What the entry's ids and project ids stand for, from the page's lists. */
export interface AuditNames {
  projects: ReadonlyMap<string, string>;
  members: ReadonlyMap<string, string>;
}

/** The record's field names as the console's screens call them. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: "Name",
  email: "Email",
  permissions: "Permissions",
  limits: "Limits",
  lastFour: "Last 4 Digits",
  projectId: "Project",
  defaultProject: "First project",
  ownerUserId: "Owner",
  billingName: "Billing Name",
  billingEmail: "Billing Email",
  taxId: "Tax ID",
  address: "Billing Address",
  city: "City",
  state: "State/Province",
  zipCode: "ZIP/Postal Code",
  country: "Country",
  enabled: "Enabled",
  threshold: "Threshold",
  amount: "Amount",
  kind: "Kind",
  card: "Card",
  lowBalance: "Low-balance alert",
  monthlyBudget: "Monthly budget",
  budgetHardStop: "Stop calls at the budget",
  requireTwoFactor: "Two-factor sign-in required",
  endpoint: "Feature",
  url: "URL",
  events: "Events",
  reason: "Reason",
  endpoints: "Features",
  monthlySpendCap: "Monthly spend cap",
  lifetimeSpendCap: "Lifetime spend cap",
  expiresAt: "Expires",
  allowedIps: "Allowed IP addresses",
  requestsPerMinute: "Requests per minute",
};

/** Fields that hold dollars. */
const MONEY_FIELDS = new Set([
  "threshold",
  "amount",
  "lowBalance",
  "monthlyBudget",
  "monthlySpendCap",
  "lifetimeSpendCap",
]);
/** What an empty (null) value of a field means. */
const NONE_LABELS: Readonly<Record<string, string>> = {
  lowBalance: "Off",
  monthlyBudget: "Off",
  monthlySpendCap: "No cap",
  lifetimeSpendCap: "No cap",
  endpoints: "All features",
  expiresAt: "Never",
  allowedIps: "Any address",
  requestsPerMinute: "No limit",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KIND_LABELS: Readonly<Record<string, string>> = { manual: "Manual", auto: "Automatic" };

/** "someFieldName" → "Some field name", for a field this page does not know yet. */
function humanize(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

function show(field: string, value: unknown, names: AuditNames): string {
  if (value === undefined || value === null) return NONE_LABELS[field] ?? "—";
  if (typeof value === "boolean") return value ? "On" : "Off";
  if (typeof value === "number")
    return MONEY_FIELDS.has(field) ? formatUsd(value) : value.toLocaleString("en-US");
  if (typeof value === "string") {
    if (field === "projectId") return names.projects.get(value) ?? "A project since archived";
    if (field === "ownerUserId") return names.members.get(value) ?? "A former member";
    if (field === "endpoint") return featureByEndpoint(value)?.name ?? value;
    if (field === "lastFour") return `••••${value}`;
    if (field === "kind") return KIND_LABELS[value] ?? value;
    if (field === "expiresAt") return formatDateTime(value);
    // An id with nothing to name it is noise to a reader.
    if (UUID.test(value)) return "—";
    return value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "None";
    const items =
      field === "endpoints" ? value.map((item) => featureByEndpoint(String(item))?.name ?? item) : value;
    return items.map(String).join(", ");
  }
  if (field === "limits") {
    const limits = apiKeyLimitsSchema.safeParse(value);
    if (limits.success) return summarizeLimits(limits.data as ApiKeyLimits).join(", ");
  }
  const tree = permissionsSchema.safeParse({ owner: false, ...(value as object) });
  if (tree.success) {
    // A permission tree reads as the members list says it ("Billing · 1 project").
    const projectIds = Object.keys(tree.data.projects).filter((id) => id !== "all");
    return summarizePermissions(tree.data, projectIds);
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${FIELD_LABELS[key] ?? humanize(key)}: ${show(key, inner, names)}`)
    .join(", ");
}

/**
 * The entry's changes, one per field, each with a readable label and values: money in dollars, a
 * permission tree or a key's limits in a few words, ids by the name they stand for. A field whose
 * before and after read the same is left out: it did not change.
 */
export function describeAuditChanges(entry: Pick<AuditEntry, "changes">, names: AuditNames): AuditChange[] {
  const before = entry.changes?.before ?? {};
  const after = entry.changes?.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const label = FIELD_LABELS[field] ?? humanize(field);
    const had = field in before;
    const has = field in after;
    if (had && has) {
      const was = show(field, before[field], names);
      const is = show(field, after[field], names);
      if (was === is) continue;
      changes.push({ label, before: was, after: is });
    } else if (has) {
      changes.push({ label, after: show(field, after[field], names) });
    } else {
      changes.push({ label, before: show(field, before[field], names) });
    }
  }
  return changes;
}

import { type ApiKeyLimits, apiKeyLimitsSchema, FEATURES, NO_API_KEY_LIMITS } from "@prism/contract";
import { allowedIpsSchema } from "@prism/contract/ip";
import dayjs from "dayjs";

/** The key dialog's fields, as Mantine inputs hold them (an empty number input is ""). */
export interface LimitsFormValues {
  allFeatures: boolean;
  endpoints: string[];
  monthlySpendCap: number | string;
  lifetimeSpendCap: number | string;
  /** The date-time picker's local "YYYY-MM-DD HH:mm:ss", or null for no expiry. */
  expiresAt: string | null;
  allowedIps: string[];
  requestsPerMinute: number | string;
}

export const FEATURE_OPTIONS = FEATURES.map((feature) => ({ value: feature.endpoint, label: feature.name }));

const PICKER_FORMAT = "YYYY-MM-DD HH:mm:ss";

function numberOrNull(value: number | string): number | null {
  if (value === "" || value === null || value === undefined) return null;
  const number = typeof value === "number" ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

export function formFromLimits(limits: ApiKeyLimits = NO_API_KEY_LIMITS): LimitsFormValues {
  return {
    allFeatures: limits.endpoints === null,
    endpoints: limits.endpoints ?? [],
    monthlySpendCap: limits.monthlySpendCap ?? "",
    lifetimeSpendCap: limits.lifetimeSpendCap ?? "",
    expiresAt: limits.expiresAt ? dayjs(limits.expiresAt).format(PICKER_FORMAT) : null,
    allowedIps: limits.allowedIps ?? [],
    requestsPerMinute: limits.requestsPerMinute ?? "",
  };
}

/** The limits the form's values stand for (empty inputs: no limit), not yet validated. */
export function limitsFromForm(values: LimitsFormValues): ApiKeyLimits {
  return {
    endpoints: values.allFeatures ? null : values.endpoints,
    monthlySpendCap: numberOrNull(values.monthlySpendCap),
    lifetimeSpendCap: numberOrNull(values.lifetimeSpendCap),
    expiresAt: values.expiresAt ? dayjs(values.expiresAt).toISOString() : null,
    allowedIps: values.allowedIps.length === 0 ? null : values.allowedIps.map((entry) => entry.trim()),
    requestsPerMinute: numberOrNull(values.requestsPerMinute),
  };
}

const FIELD_OF: Record<keyof ApiKeyLimits, keyof LimitsFormValues> = {
  endpoints: "endpoints",
  monthlySpendCap: "monthlySpendCap",
  lifetimeSpendCap: "lifetimeSpendCap",
  expiresAt: "expiresAt",
  allowedIps: "allowedIps",
  requestsPerMinute: "requestsPerMinute",
};

/** The contract's checks of the limits, as one message per form field. */
export function validateLimitsForm(
  values: LimitsFormValues,
): Partial<Record<keyof LimitsFormValues, string>> {
  const limits = limitsFromForm(values);
  // The entries' syntax is checked apart from the shared schema (`@prism/contract/ip`, loaded only by
  // this screen's chunk); both must pass, as on the server.
  const parsed = apiKeyLimitsSchema.safeParse(limits);
  const ips = allowedIpsSchema.safeParse(limits.allowedIps);
  if (parsed.success && ips.success) return {};
  const errors: Partial<Record<keyof LimitsFormValues, string>> = {};
  const ipIssues = (ips.error?.issues ?? []).map((issue) => ({
    ...issue,
    path: ["allowedIps", ...issue.path],
  }));
  for (const issue of [...(parsed.error?.issues ?? []), ...ipIssues]) {
    const field = FIELD_OF[issue.path[0] as keyof ApiKeyLimits];
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

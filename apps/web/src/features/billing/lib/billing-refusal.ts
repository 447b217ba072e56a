import { REQUIRED_FIELDS_MISSING, updateBillingRequest } from "@prism/contract";

export type BillingField =
  | "billingName"
  | "billingEmail"
  | "taxId"
  | "address"
  | "city"
  | "state"
  | "zipCode"
  | "country";

const FIELD_LABELS: Record<BillingField, string> = {
  billingName: "Billing Name",
  billingEmail: "Billing Email",
  taxId: "Tax ID",
  address: "Billing Address",
  city: "City",
  state: "State/Province",
  zipCode: "ZIP/Postal Code",
  country: "Country",
};

const isBillingField = (key: string): key is BillingField => Object.hasOwn(FIELD_LABELS, key);

/**
 * The server names the first invalid field in the error's `field` and says "<field>: <reason>" in its
 * message; this gives the field to mark and a sentence naming it by its label ("City is required.").
 */
export function describeBillingRefusal(refusal: { field?: string | undefined; message: string }): {
  field: BillingField | null;
  message: string;
} {
  const { field, message } = refusal;
  if (!field || !isBillingField(field)) return { field: null, message };
  const prefix = `${field}: `;
  const reason = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  const label = FIELD_LABELS[field];
  return {
    field,
    message: reason === REQUIRED_FIELDS_MISSING ? `${label} is required.` : `${label}: ${reason}`,
  };
}

/**
 * Every field the contract's billing rules refuse, each with its reason as `describeBillingRefusal`
 * words it ("City is required."), so the form marks all of them beside their fields before sending.
 */
export function billingFormErrors(
  values: Record<BillingField, string>,
  organizationId: string,
): Partial<Record<BillingField, string>> {
  const checked = updateBillingRequest.safeParse({ organizationId, ...values });
  if (checked.success) return {};
  const errors: Partial<Record<BillingField, string>> = {};
  for (const issue of checked.error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!isBillingField(field) || errors[field]) continue;
    // An empty field is missing, whatever its own rule would add (an email's shape).
    const missing = values[field].trim() === "";
    const refusal = describeBillingRefusal({
      field,
      message: missing ? REQUIRED_FIELDS_MISSING : issue.message,
    });
    if (refusal.field) errors[refusal.field] = refusal.message;
  }
  return errors;
}

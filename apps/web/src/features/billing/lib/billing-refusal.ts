import { REQUIRED_FIELDS_MISSING } from "@prism/contract";

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
 * The server refuses the first invalid field as "<field>: <reason>"; this turns it into the field
 * to mark and a sentence naming it by its label ("City is required.").
 */
export function describeBillingRefusal(message: string): { field: BillingField | null; message: string } {
  const match = /^(\w+): (.*)$/s.exec(message);
  const key = match?.[1];
  const reason = match?.[2] ?? message;
  if (!key || !isBillingField(key)) return { field: null, message };
  const label = FIELD_LABELS[key];
  const missing = reason === REQUIRED_FIELDS_MISSING || /is required/i.test(reason);
  return { field: key, message: missing ? `${label} is required.` : `${label}: ${reason}` };
}

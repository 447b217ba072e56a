/**
 * Card brands as people write them. Providers name brands in lower case ("visa", "amex",
 * "american express", "diners"); every place that shows a brand to a person (the console, the
 * invoice PDF) goes through `cardBrandLabel`.
 */
const CARD_BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  "master card": "Mastercard",
  amex: "American Express",
  "american express": "American Express",
  american_express: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
  "diners club": "Diners Club",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
  eftpos_au: "EFTPOS Australia",
  interac: "Interac",
  link: "Link",
};

/** The generic word for a card whose brand is unknown. */
export const GENERIC_CARD_LABEL = "Card";

export function cardBrandLabel(brand: string | null | undefined): string {
  const key = (brand ?? "").trim().toLowerCase();
  if (key === "" || key === "unknown") return GENERIC_CARD_LABEL;
  const known = CARD_BRAND_NAMES[key];
  if (known) return known;
  // A brand we have not met yet: capitalise each word rather than show the provider's lower case.
  return key
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

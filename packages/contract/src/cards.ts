const RECOGNISED_NETWORKS = [
  "visa",
  "mastercard",
  "american express",
  "discover",
  "jcb",
  "diners",
] as const satisfies readonly CardNetwork[];

/** The name people know each recognised network by. */
const CARD_NETWORK_NAMES: Record<(typeof RECOGNISED_NETWORKS)[number], string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  "american express": "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
};

/**
 * Card brands as people write them. Providers name brands in lower case ("visa", "amex",
 * "american express", "diners"); every place that shows a brand to a person (the console, the
 * invoice PDF) goes through `cardBrandLabel`.
 */
export const CARD_BRAND_NAMES: Readonly<Record<string, string>> = {
  ...CARD_NETWORK_NAMES,
  "master card": CARD_NETWORK_NAMES.mastercard,
  amex: CARD_NETWORK_NAMES["american express"],
  american_express: CARD_NETWORK_NAMES["american express"],
  "diners club": CARD_NETWORK_NAMES.diners,
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

/** The network a provider's brand stands for, whatever its spelling ("amex", "American Express"). */
export function cardNetworkOfBrand(brand: string | null | undefined): CardNetwork {
  const label = cardBrandLabel(brand);
  return RECOGNISED_NETWORKS.find((network) => CARD_NETWORK_NAMES[network] === label) ?? "unknown";
}

// ---------------------------------------------------------------------------------------------------
// Card number rules, shared by the sandbox card form (instant feedback) and the sandbox payments
// provider (which decides). Stripe's own form applies the same rules in production.
// ---------------------------------------------------------------------------------------------------

/** Card networks recognised from a number's leading digits, named as providers name them. */
export type CardNetwork =
  | "visa"
  | "mastercard"
  | "american express"
  | "discover"
  | "jcb"
  | "diners"
  | "unknown";

/** The shortest card number in use (some private-label cards); anything shorter is a typo. */
export const CARD_NUMBER_MIN_DIGITS = 12;
/** The longest card number ISO/IEC 7812 allows. */
export const CARD_NUMBER_MAX_DIGITS = 19;

/** Luhn's checksum, which every card number carries in its last digit (digits only, at least 12). */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits) || digits.length < CARD_NUMBER_MIN_DIGITS) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether the number's first `length` digits, read as a number, fall in [low, high]. */
function prefixIn(digits: string, length: number, low: number, high: number): boolean {
  if (digits.length < length) return false;
  const prefix = Number(digits.slice(0, length));
  return prefix >= low && prefix <= high;
}

/**
 * The network by IIN range, as soon as the leading digits decide it (the form shows the logo while
 * the user types); "unknown" until then or for a network we do not name.
 */
export function detectCardNetwork(digits: string): CardNetwork {
  if (digits.startsWith("4")) return "visa";
  if (prefixIn(digits, 2, 51, 55) || prefixIn(digits, 4, 2221, 2720)) return "mastercard";
  if (prefixIn(digits, 2, 34, 34) || prefixIn(digits, 2, 37, 37)) return "american express";
  if (
    digits.startsWith("6011") ||
    prefixIn(digits, 2, 65, 65) ||
    prefixIn(digits, 3, 644, 649) ||
    prefixIn(digits, 6, 622126, 622925)
  ) {
    return "discover";
  }
  if (prefixIn(digits, 4, 3528, 3589)) return "jcb";
  if (prefixIn(digits, 3, 300, 305) || prefixIn(digits, 2, 36, 36) || prefixIn(digits, 2, 38, 38)) {
    return "diners";
  }
  return "unknown";
}

/**
 * Digits of a complete number of the network: 15 for American Express, 16 for Visa, Mastercard and
 * Discover; null where lengths vary (JCB, Diners Club, an unrecognised network), which only the
 * bounds and Luhn's checksum limit.
 */
export function cardNumberLength(network: CardNetwork): number | null {
  switch (network) {
    case "american express":
      return 15;
    case "visa":
    case "mastercard":
    case "discover":
      return 16;
    default:
      return null;
  }
}

/** Digits of the security code: four on the front of an American Express card, three elsewhere. */
export function cardSecurityCodeLength(network: CardNetwork): number {
  return network === "american express" ? 4 : 3;
}

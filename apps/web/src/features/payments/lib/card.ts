import {
  CARD_EXPIRED,
  CARD_NUMBER_INVALID,
  CARD_NUMBER_MAX_DIGITS,
  CARD_NUMBER_MIN_DIGITS,
  type CardNetwork,
  cardNumberLength,
  cardSecurityCodeLength,
  detectCardNetwork,
  passesLuhn,
} from "@prism/contract";

// Client-side checks of the sandbox card form: instant feedback only. The sandbox provider on the
// server validates the same card again with the same contract rules and decides whether it is declined.

export function cardDigits(value: string): string {
  return value.replace(/\D/g, "");
}

/** The network of what the user typed, from the contract's IIN ranges (the form's logo and rules). */
export function cardNetworkOf(value: string): CardNetwork {
  return detectCardNetwork(cardDigits(value));
}

/**
 * Digits the security code field takes: the network's length, or up to four where the number's
 * length is not fixed (a network the form does not know closely).
 */
export function cvcMaxLength(network: CardNetwork): number {
  return cardNumberLength(network) === null ? 4 : cardSecurityCodeLength(network);
}

/** Groups the digits as printed on the card: 4-6-5 for American Express, fours otherwise. */
export function formatCardNumber(value: string): string {
  const network = cardNetworkOf(value);
  const digits = cardDigits(value).slice(0, cardNumberLength(network) ?? CARD_NUMBER_MAX_DIGITS);
  if (network === "american express") {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].filter(Boolean).join(" ");
  }
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "MM / YY" as the user types; a leading 2-9 is a single-digit month. */
export function formatExpiry(value: string): string {
  let digits = cardDigits(value);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

export function parseExpiry(value: string): Expiry | null {
  const digits = cardDigits(value);
  if (digits.length !== 4) return null;
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(digits.slice(2)) };
}

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardFields, string>>;

/** The messages the card form shows under its fields; empty when the card may be sent. */
export function validateCard(fields: CardFields, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = cardDigits(fields.number);
  const network = detectCardNetwork(digits);
  const length = cardNumberLength(network);
  if (!digits) errors.number = "Enter your card number.";
  else if (
    digits.length < CARD_NUMBER_MIN_DIGITS ||
    (length !== null && digits.length !== length) ||
    !passesLuhn(digits)
  ) {
    errors.number = CARD_NUMBER_INVALID;
  }

  const expiry = parseExpiry(fields.expiry);
  if (!cardDigits(fields.expiry)) errors.expiry = "Enter the expiry date.";
  else if (!expiry) errors.expiry = "Your card's expiration date is incomplete.";
  else if (expiry.year * 12 + expiry.month < now.getFullYear() * 12 + now.getMonth() + 1) {
    errors.expiry = CARD_EXPIRED;
  }

  const cvc = cardDigits(fields.cvc);
  if (!cvc) errors.cvc = "Enter the security code.";
  else if (cvc.length !== cardSecurityCodeLength(network) && !(length === null && cvc.length >= 3)) {
    errors.cvc = "Your card's security code is incomplete.";
  }
  return errors;
}

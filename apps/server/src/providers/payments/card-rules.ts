/** Luhn's checksum, which every card number satisfies. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = number.length - 1; index >= 0; index -= 1) {
    let digit = number.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return false;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** The brand by IIN range, named as Stripe names them (the console shows a logo for the first four). */
export function detectCardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "american express";
  if (/^(6011|65|64[4-9]|622)/.test(number)) return "discover";
  if (/^(352[89]|35[3-8])/.test(number)) return "jcb";
  if (/^3(0[0-5]|[68])/.test(number)) return "diners";
  return "unknown";
}

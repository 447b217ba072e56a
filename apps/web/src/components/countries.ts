import { getAlpha2Codes } from "i18n-iso-countries";

/**
 * Countries of the billing form, where the spec asks for "about 195 countries". The codes are ISO 3166-1 alpha-2
 * from `i18n-iso-countries` (maintained as ISO changes), the names CLDR's English names through
 * `Intl.DisplayNames` (maintained by the browser). The list is every ISO 3166-1 entry rather than the
 * spec's ~195 sovereign states: territories with their own tax systems (Jersey, Bermuda, Puerto Rico,
 * Hong Kong, ...) are real billing addresses. The billing form stores the name, which invoices print.
 */
export interface Country {
  readonly code: string;
  readonly name: string;
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

export const COUNTRIES: readonly Country[] = Object.keys(getAlpha2Codes())
  .map((code) => ({ code, name: regionNames.of(code) ?? code }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

const byCode = new Map(COUNTRIES.map((country) => [country.code, country]));

/** The English name of an ISO code (a card's issuing country), or the code itself when unknown. */
export function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  return byCode.get(code.toUpperCase())?.name ?? code;
}

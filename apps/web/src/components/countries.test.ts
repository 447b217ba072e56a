import { describe, expect, it } from "vitest";
import { COUNTRIES, countryName } from "./countries";

describe("countries", () => {
  it("lists every ISO 3166-1 country once, by English name, in alphabetical order", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(195);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(COUNTRIES.length);
    expect(COUNTRIES).toContainEqual({ code: "US", name: "United States" });
    expect(COUNTRIES).toContainEqual({ code: "DE", name: "Germany" });
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });

  it("names a card's issuing country by its code and keeps an unknown code as it is", () => {
    expect(countryName("fr")).toBe("France");
    expect(countryName("XX")).toBe("XX");
    expect(countryName(null)).toBeNull();
  });
});

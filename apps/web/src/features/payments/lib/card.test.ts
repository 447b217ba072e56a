import { describe, expect, it } from "vitest";
import { detectCardBrand, formatCardNumber, formatExpiry, parseExpiry, validateCard } from "./card";

describe("card checks", () => {
  it("shows a logo brand for the contract's network, and the generic card for the others", () => {
    expect(detectCardBrand("5555 5555")).toBe("mastercard");
    expect(detectCardBrand("3056930009020004")).toBe("generic");
  });

  it("groups digits as printed on the card", () => {
    expect(formatCardNumber("4242424242424242999")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatExpiry("1230")).toBe("12 / 30");
    expect(formatExpiry("4")).toBe("04");
    expect(parseExpiry("12 / 30")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("13 / 30")).toBeNull();
  });

  it("refuses an expiry in the past and an incomplete security code", () => {
    const now = new Date(2026, 10, 22);
    expect(validateCard({ number: "4242 4242 4242 4242", expiry: "11 / 26", cvc: "123" }, now)).toEqual({});
    expect(validateCard({ number: "4242 4242 4242 4242", expiry: "10 / 26", cvc: "12" }, now)).toEqual({
      expiry: "Your card's expiration date is in the past.",
      cvc: "Your card's security code is incomplete.",
    });
  });
});

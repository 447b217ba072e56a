import { CARD_EXPIRED, CARD_NUMBER_INVALID } from "@prism/contract";
import { describe, expect, it } from "vitest";
import {
  cardNetworkOf,
  cvcMaxLength,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
  validateCard,
} from "./card";

describe("card checks", () => {
  it("reads the contract's network from the typed number", () => {
    expect(cardNetworkOf("5555 5555")).toBe("mastercard");
    expect(cardNetworkOf("3056 9300 0902 0004")).toBe("diners");
    expect(cvcMaxLength("american express")).toBe(4);
    expect(cvcMaxLength("visa")).toBe(3);
    expect(cvcMaxLength("diners")).toBe(4);
  });

  it("refuses a number of the wrong length for its network, even when its checksum passes", () => {
    const now = new Date(2026, 10, 22);
    const card = { expiry: "12 / 30", cvc: "123" };
    // Luhn-valid 13-digit Visa: Visa numbers here are 16 digits.
    expect(validateCard({ ...card, number: "4222 2222 2222 2" }, now)).toEqual({
      number: CARD_NUMBER_INVALID,
    });
    // Diners Club numbers vary in length: 14 digits pass.
    expect(validateCard({ ...card, number: "3056 9309 0259 04" }, now)).toEqual({});
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
      expiry: CARD_EXPIRED,
      cvc: "Your card's security code is incomplete.",
    });
  });
});

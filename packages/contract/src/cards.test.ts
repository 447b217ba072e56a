import { describe, expect, it } from "vitest";
import {
  cardBrandLabel,
  cardNetworkOfBrand,
  cardNumberLength,
  cardSecurityCodeLength,
  detectCardNetwork,
  passesLuhn,
} from "./cards";

describe("cardBrandLabel", () => {
  it.each([
    ["visa", "Visa"],
    ["mastercard", "Mastercard"],
    ["amex", "American Express"],
    ["american express", "American Express"],
    ["jcb", "JCB"],
    ["diners", "Diners Club"],
    ["unionpay", "UnionPay"],
    ["Visa", "Visa"],
  ])("writes %s as %s", (brand, label) => {
    expect(cardBrandLabel(brand)).toBe(label);
  });

  it("capitalises a brand it does not know and names a missing one Card", () => {
    expect(cardBrandLabel("new_network")).toBe("New Network");
    expect(cardBrandLabel("unknown")).toBe("Card");
    expect(cardBrandLabel(null)).toBe("Card");
  });
});

describe("passesLuhn", () => {
  it("accepts Stripe's test cards and refuses a wrong check digit, letters and short numbers", () => {
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("378282246310005")).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("4242 4242 4242 4242")).toBe(false);
    expect(passesLuhn("0000000000")).toBe(false);
    expect(passesLuhn("")).toBe(false);
  });
});

describe("detectCardNetwork", () => {
  it("names every network from its IIN range", () => {
    expect(detectCardNetwork("4")).toBe("visa");
    expect(detectCardNetwork("5555")).toBe("mastercard");
    expect(detectCardNetwork("2223003122003222")).toBe("mastercard");
    expect(detectCardNetwork("2721")).toBe("unknown");
    expect(detectCardNetwork("3782")).toBe("american express");
    expect(detectCardNetwork("6011111111111117")).toBe("discover");
    expect(detectCardNetwork("6221260000000000")).toBe("discover");
    expect(detectCardNetwork("6221250000000000")).toBe("unknown");
    expect(detectCardNetwork("3566002020360505")).toBe("jcb");
    expect(detectCardNetwork("3056930009020004")).toBe("diners");
    expect(detectCardNetwork("")).toBe("unknown");
  });

  it("asks four security digits of American Express only", () => {
    expect(cardSecurityCodeLength("american express")).toBe(4);
    expect(cardSecurityCodeLength("visa")).toBe(3);
  });
});

describe("cardNumberLength", () => {
  it("fixes the length of the networks whose numbers have one and leaves the others to the bounds", () => {
    expect(cardNumberLength("american express")).toBe(15);
    expect(cardNumberLength("visa")).toBe(16);
    expect(cardNumberLength("mastercard")).toBe(16);
    expect(cardNumberLength("discover")).toBe(16);
    expect(cardNumberLength("jcb")).toBeNull();
    expect(cardNumberLength("diners")).toBeNull();
    expect(cardNumberLength("unknown")).toBeNull();
  });
});

describe("cardNetworkOfBrand", () => {
  it("reads the network of any spelling a provider uses", () => {
    expect(cardNetworkOfBrand("amex")).toBe("american express");
    expect(cardNetworkOfBrand("American Express")).toBe("american express");
    expect(cardNetworkOfBrand("master card")).toBe("mastercard");
    expect(cardNetworkOfBrand("Diners Club")).toBe("diners");
    expect(cardNetworkOfBrand("unionpay")).toBe("unknown");
    expect(cardNetworkOfBrand(null)).toBe("unknown");
  });
});

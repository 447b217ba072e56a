import { describe, expect, it } from "vitest";
import { cardBrandLabel } from "./cards";

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

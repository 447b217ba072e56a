import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CardBrandLogo, normalizeCardBrand } from "./card-brand-logo";

describe("CardBrandLogo", () => {
  it("has a logo for visa, mastercard, american express and discover, whatever the provider's spelling", () => {
    expect(normalizeCardBrand("Visa")).toBe("visa");
    expect(normalizeCardBrand("mastercard")).toBe("mastercard");
    expect(normalizeCardBrand("amex")).toBe("american express");
    expect(normalizeCardBrand("American Express")).toBe("american express");
    expect(normalizeCardBrand("discover")).toBe("discover");
  });

  it("falls back to the generic card for any other brand, still named after it", () => {
    expect(normalizeCardBrand("jcb")).toBe("generic");
    expect(normalizeCardBrand(null)).toBe("generic");
    render(<CardBrandLogo brand="unionpay" />);
    expect(screen.getByRole("img", { name: "UnionPay" })).toHaveAttribute("data-brand", "generic");
  });

  it("names a card without a brand Card and draws the logo of any spelling of a known one", () => {
    render(
      <>
        <CardBrandLogo brand={null} />
        <CardBrandLogo brand="Master Card" />
      </>,
    );
    expect(screen.getByRole("img", { name: "Card" })).toHaveAttribute("data-brand", "generic");
    expect(screen.getByRole("img", { name: "Mastercard" })).toHaveAttribute("data-brand", "mastercard");
  });
});

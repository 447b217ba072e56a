import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SavedCard } from "./payment-method-card";

const card = (brand: string, last4: string) => ({
  brand,
  funding: "credit",
  last4,
  country: "US",
  expMonth: 4,
  expYear: 2031,
});

describe("SavedCard", () => {
  it.each([
    ["visa", "4242", "Visa"],
    ["mastercard", "4444", "Mastercard"],
    ["american express", "0005", "American Express"],
    ["jcb", "0000", "JCB"],
    ["unionpay", "0005", "UnionPay"],
    ["diners", "0004", "Diners Club"],
  ])("shows the provider's brand %s (card ending %s) as %s", (brand, last4, label) => {
    render(
      <MantineProvider>
        <SavedCard card={card(brand, last4)} />
      </MantineProvider>,
    );
    expect(screen.getByText(`${label} •••• ${last4}`)).toBeInTheDocument();
    // What a screen reader says instead of the dots.
    expect(screen.getByText(`${label} ending in ${last4}`)).toBeInTheDocument();
  });
});

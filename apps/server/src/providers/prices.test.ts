import { FEATURES } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { PriceBook } from "./prices";

describe("PriceBook", () => {
  const feature = FEATURES[0]!;

  it("converts an overriding price to micro-dollars exactly, not through a float multiplication", () => {
    // 4.0000005 * 1e6 is 4000000.4999999995 in floating point, which Math.round takes down.
    const book = new PriceBook({ [feature.id]: { price: 4.0000005 } });
    expect(book.of(feature).unitMicros).toBe(4_000_001n);
  });

  it("keeps the catalog's default price when nothing overrides it", () => {
    expect(new PriceBook().of(feature).unitMicros).toBe(BigInt(feature.billing.defaultPriceMicros));
  });
});

import { describe, expect, it } from "vitest";
import { chargeNoticeText, formatCost } from "./messages";

describe("formatCost", () => {
  it("shows 3 decimals, rounding half up on the exact amount", () => {
    expect(formatCost(0.02)).toBe("$0.020");
    expect(formatCost(0.0375)).toBe("$0.038");
    expect(formatCost(0.037499)).toBe("$0.037");
    expect(formatCost(0)).toBe("$0.000");
    expect(formatCost(5)).toBe("$5.000");
    expect(formatCost(1234.5678)).toBe("$1234.568");
  });

  it("makes the playground's charge notice", () => {
    expect(chargeNoticeText(0.015)).toBe("$0.015 will be charged");
  });
});

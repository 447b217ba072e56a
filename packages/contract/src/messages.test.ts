import { describe, expect, it } from "vitest";
import { chargeNoticeText, formatBalance, formatCost, formatMicros } from "./messages";

describe("formatCost", () => {
  it("shows 3 decimals, rounding half up on the exact amount", () => {
    expect(formatCost(0.02)).toBe("$0.020");
    expect(formatCost(0.0375)).toBe("$0.038");
    expect(formatCost(0.037499)).toBe("$0.037");
    expect(formatCost(0)).toBe("$0.000");
    expect(formatCost(5)).toBe("$5.000");
    expect(formatCost(1234.5678)).toBe("$1,234.568");
  });

  it("keeps the sign of a negative amount and drops it when the amount rounds to zero", () => {
    expect(formatCost(-0.0125)).toBe("-$0.013");
    expect(formatCost(-0.0001)).toBe("$0.000");
  });

  it("makes the playground's charge notice", () => {
    expect(chargeNoticeText(0.015)).toBe("$0.015 will be charged");
  });
});

describe("formatBalance", () => {
  it("shows 2 decimals with thousands separators, rounding half up on the printed decimal value", () => {
    expect(formatBalance(1234.5)).toBe("$1,234.50");
    expect(formatBalance(1.005)).toBe("$1.01");
    expect(formatBalance(2.004)).toBe("$2.00");
    expect(formatBalance(-3)).toBe("-$3.00");
    expect(formatBalance(1_000_000)).toBe("$1,000,000.00");
  });
});

describe("formatMicros", () => {
  it("formats exact micro-dollars at any precision", () => {
    expect(formatMicros(37_500n, 3)).toBe("$0.038");
    expect(formatMicros(1_234_567_890n, 6)).toBe("$1,234.567890");
    expect(formatMicros(2_500_000n, 0)).toBe("$3");
  });
});

import { describe, expect, it } from "vitest";
import {
  isWholeCents,
  MICROS_PER_USD,
  microsToUsd,
  resolutionLabel,
  roundUsdToCents,
  usdToMicros,
} from "./limits";

describe("usdToMicros", () => {
  it("converts whole and fractional dollars exactly", () => {
    expect(usdToMicros(0)).toBe(0n);
    expect(usdToMicros(20)).toBe(20_000_000n);
    expect(usdToMicros(0.02)).toBe(20_000n);
    expect(usdToMicros(0.1 + 0.2)).toBe(300_000n);
    expect(usdToMicros(19.99)).toBe(19_990_000n);
    expect(usdToMicros(1.000001)).toBe(1_000_001n);
  });

  it("rounds half away from zero on the printed decimal, where float multiplication would not", () => {
    expect(4.0000005 * MICROS_PER_USD).toBeLessThan(4_000_000.5);
    expect(usdToMicros(4.0000005)).toBe(4_000_001n);
    expect(usdToMicros(1.0000005)).toBe(1_000_001n);
    expect(usdToMicros(1.0000004)).toBe(1_000_000n);
    expect(usdToMicros(-1.0000005)).toBe(-1_000_001n);
    expect(usdToMicros(0.0000005)).toBe(1n);
    expect(usdToMicros(0.0000004)).toBe(0n);
    expect(usdToMicros(1e-9)).toBe(0n);
  });

  it("handles large amounts and exponent notation", () => {
    expect(usdToMicros(123_456_789.123456)).toBe(123_456_789_123_456n);
    expect(usdToMicros(1e21)).toBe(10n ** 27n);
  });

  it("refuses non-finite values", () => {
    expect(() => usdToMicros(Number.NaN)).toThrow(RangeError);
    expect(() => usdToMicros(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("microsToUsd", () => {
  it("converts back to the nearest dollar number", () => {
    expect(microsToUsd(20_000n)).toBe(0.02);
    expect(microsToUsd(1_000_001n)).toBe(1.000001);
    expect(microsToUsd(-2_500_000n)).toBe(-2.5);
    expect(microsToUsd(6_000)).toBe(0.006);
  });

  it("round-trips every micro amount through dollars", () => {
    for (let micros = -2_000_000n; micros <= 2_000_000n; micros += 997n) {
      expect(usdToMicros(microsToUsd(micros))).toBe(micros);
    }
    for (const micros of [9_007_199_254_740n, 123_456_789_123_456n, 1n, 999_999n]) {
      expect(usdToMicros(microsToUsd(micros))).toBe(micros);
    }
  });
});

describe("money helpers", () => {
  it("recognises whole cents", () => {
    expect(isWholeCents(20)).toBe(true);
    expect(isWholeCents(20.05)).toBe(true);
    expect(isWholeCents(0.1 + 0.2)).toBe(true);
    expect(isWholeCents(20.005)).toBe(false);
  });

  it("rounds to whole cents half away from zero on the decimal value", () => {
    expect(roundUsdToCents(20.005)).toBe(20.01);
    expect(roundUsdToCents(1.005)).toBe(1.01);
    expect(roundUsdToCents(20.004)).toBe(20);
    expect(roundUsdToCents(-2.345)).toBe(-2.35);
    expect(roundUsdToCents(0.1 + 0.2)).toBe(0.3);
  });

  it("labels resolutions", () => {
    expect(resolutionLabel(1024, 576)).toBe("16:9");
    expect(resolutionLabel(1000, 1000)).toBe("custom");
  });
});

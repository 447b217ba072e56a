import { describe, expect, it } from "vitest";
import { formatElapsed } from "./elapsed";

describe("formatElapsed", () => {
  it("shows seconds with one decimal", () => {
    expect(formatElapsed(0)).toBe("0.0s");
    expect(formatElapsed(100)).toBe("0.1s");
    expect(formatElapsed(3_249)).toBe("3.2s");
    expect(formatElapsed(12_000)).toBe("12.0s");
    expect(formatElapsed(61_990)).toBe("61.9s");
  });

  it("never goes negative when clocks disagree", () => {
    expect(formatElapsed(-50)).toBe("0.0s");
  });
});

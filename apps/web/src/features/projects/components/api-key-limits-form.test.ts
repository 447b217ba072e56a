import { NO_API_KEY_LIMITS } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { summarizeLimits } from "../../../lib/api-key-limits";
import { formFromLimits, limitsFromForm, validateLimitsForm } from "./api-key-limits-form";

describe("API key limits form", () => {
  it("turns empty inputs into no limits, and a key without limits into empty inputs", () => {
    const empty = formFromLimits(NO_API_KEY_LIMITS);
    expect(empty).toMatchObject({ allFeatures: true, monthlySpendCap: "", expiresAt: null, allowedIps: [] });
    expect(limitsFromForm(empty)).toEqual(NO_API_KEY_LIMITS);
    expect(validateLimitsForm(empty)).toEqual({});
    expect(summarizeLimits(NO_API_KEY_LIMITS)).toEqual(["No limits"]);
  });

  it("round-trips a contractor's key: one feature, $20 a month, one office, until Friday", () => {
    const limits = {
      endpoints: ["/v1/images/background-removal"],
      monthlySpendCap: 20,
      lifetimeSpendCap: null,
      expiresAt: "2026-11-27T17:00:00.000Z",
      allowedIps: ["203.0.113.7"],
      requestsPerMinute: 60,
    };
    const form = formFromLimits(limits);
    expect(form.allFeatures).toBe(false);
    expect(limitsFromForm(form)).toEqual(limits);
    expect(validateLimitsForm(form)).toEqual({});
    expect(summarizeLimits(limits)).toEqual([
      "Background Removal",
      "$20.00/month",
      expect.stringMatching(/^Until Nov 27, 2026/),
      "203.0.113.7",
      "60/min",
    ]);
  });

  it("names the field of each invalid limit", () => {
    const form = {
      ...formFromLimits(NO_API_KEY_LIMITS),
      allFeatures: false,
      endpoints: [],
      monthlySpendCap: 0.001,
      allowedIps: ["10.0.0.0/33"],
      requestsPerMinute: 0,
    };
    const errors = validateLimitsForm(form);
    expect(Object.keys(errors).sort()).toEqual(
      ["allowedIps", "endpoints", "monthlySpendCap", "requestsPerMinute"].sort(),
    );
    expect(errors.endpoints).toBe("Choose at least one feature.");
    expect(errors.allowedIps).toMatch(/CIDR/);
  });
});

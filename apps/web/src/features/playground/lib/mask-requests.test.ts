import type { HistoryRequestRecord } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { fromRecord } from "../api/use-history";
import {
  DEFAULT_FILL_DEBUG_CONTROLS,
  formatCoverage,
  formatDenoise,
  generativeFillBody,
  maskCoverage,
  maskedRowImages,
  maskMissingMessage,
  originalAndResult,
  reimagineMaskChoice,
} from "./mask-requests";

function record(files: Record<string, string[]>, result?: string): HistoryRequestRecord {
  return {
    id: "req-1",
    request_date: "2026-11-03T16:05:00Z",
    cost: 0.02,
    request_data: { files, body: {} },
    response_data: result ? { file: result } : {},
    status: result ? "done" : "error",
  } as HistoryRequestRecord;
}

describe("generativeFillBody", () => {
  it("starts from the spec's defaults: denoise 0.7 and cfg 46", () => {
    expect(DEFAULT_FILL_DEBUG_CONTROLS).toEqual({ denoise: 0.7, cfg: 46 });
  });

  it("sends the prompt with denoise and cfg outside production", () => {
    expect(generativeFillBody("  a red boat ", { denoise: 0.85, cfg: 12 }, false)).toEqual({
      prompt: "a red boat",
      denoise: 0.85,
      cfg: 12,
    });
  });

  it("leaves the debug values out in production", () => {
    expect(generativeFillBody("a red boat", { denoise: 0.85, cfg: 12 }, true)).toEqual({
      prompt: "a red boat",
    });
  });

  it("leaves an empty prompt out", () => {
    expect(generativeFillBody("   ", DEFAULT_FILL_DEBUG_CONTROLS, true)).toEqual({});
  });
});

describe("reimagineMaskChoice", () => {
  it("never sends a mask in production, where Use Mask is not offered", () => {
    expect(reimagineMaskChoice({ isProduction: true, useMask: true, invert: true })).toBe("none");
  });

  it("sends no mask while Use Mask is off", () => {
    expect(reimagineMaskChoice({ isProduction: false, useMask: false, invert: true })).toBe("none");
  });

  it("sends the drawn mask, or its inverse with Invert Mask", () => {
    expect(reimagineMaskChoice({ isProduction: false, useMask: true, invert: false })).toBe("drawn");
    expect(reimagineMaskChoice({ isProduction: false, useMask: true, invert: true })).toBe("inverted");
  });
});

describe("formatting", () => {
  it("shows denoise with 2 decimals", () => {
    expect(formatDenoise(0.7)).toBe("0.70");
    expect(formatDenoise(1)).toBe("1.00");
    expect(formatDenoise(0.855)).toMatch(/^0\.8[56]$/);
  });

  it("measures and words the share of the image a mask covers", () => {
    expect(maskCoverage(Uint8Array.of(255, 0, 0, 0))).toBe(0.25);
    expect(maskCoverage(new Uint8Array(0))).toBe(0);
    expect(formatCoverage(0.25)).toBe("25% of the image");
    expect(formatCoverage(0.004)).toBe("<1% of the image");
    expect(formatCoverage(0)).toBe("0% of the image");
  });

  it("names the mask button in the missing-mask dialog", () => {
    expect(maskMissingMessage("Select Object to Remove")).toEqual({
      title: "No Mask Drawn",
      message: "Please click Select Object to Remove and paint over the area first.",
    });
  });
});

describe("row pictures", () => {
  it("shows the original, the mask over it and the result", () => {
    const item = fromRecord(record({ image: ["/f/in"], mask: ["/f/mask"] }, "/f/out"));
    expect(maskedRowImages(item)).toEqual([
      { label: "Original", url: "/f/in" },
      { label: "Mask overlay", url: "/f/mask", overlayOn: "/f/in" },
      { label: "Result", url: "/f/out" },
    ]);
  });

  it("has no overlay without a mask and no result after a failure", () => {
    const item = fromRecord(record({ image: ["/f/in"] }));
    expect(maskedRowImages(item)).toEqual([{ label: "Original", url: "/f/in" }]);
  });

  it("shows only Original and Result for reimagine, even with a mask", () => {
    const item = fromRecord(record({ image: ["/f/in"], mask: ["/f/mask"] }, "/f/out"));
    expect(originalAndResult(item)).toEqual([
      { label: "Original", url: "/f/in" },
      { label: "Result", url: "/f/out" },
    ]);
  });
});

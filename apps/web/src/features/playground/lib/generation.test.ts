import { describe, expect, it } from "vitest";
import {
  generationChargeText,
  generationReuse,
  parseSizeKey,
  pegasusUnitPrice,
  resolutionOptionLabel,
  resolutionOptions,
  sizeKey,
  totalPrice,
} from "./generation";

describe("resolution choices", () => {
  it("offers the four listed sizes with their aspect labels, 1:1 first", () => {
    expect(resolutionOptions({ width: 1024, height: 1024 })).toEqual([
      { value: "1024x1024", label: "1024x1024 (1:1)" },
      { value: "1024x576", label: "1024x576 (16:9)" },
      { value: "576x1024", label: "576x1024 (9:16)" },
      { value: "820x1024", label: "820x1024 (4:5)" },
    ]);
  });

  it("adds a size from outside the list, labelled custom", () => {
    const options = resolutionOptions({ width: 1000, height: 750 });
    expect(options).toHaveLength(5);
    expect(options.at(-1)).toEqual({ value: "1000x750", label: "1000x750 (custom)" });
    expect(resolutionOptionLabel({ width: 576, height: 1024 })).toBe("576x1024 (9:16)");
  });

  it("reads a size value back, and nothing else", () => {
    expect(parseSizeKey(sizeKey({ width: 820, height: 1024 }))).toEqual({ width: 820, height: 1024 });
    expect(parseSizeKey("820 x 1024")).toBeNull();
    expect(parseSizeKey(null)).toBeNull();
  });
});

describe("cost line", () => {
  it("shows price times image count with 3 decimals", () => {
    expect(generationChargeText(0.02, 1)).toBe("$0.020 will be charged");
    expect(generationChargeText(0.02, 2)).toBe("$0.040 will be charged");
    expect(generationChargeText(0.05, 4)).toBe("$0.200 will be charged");
  });

  it("multiplies exactly where floating point would not", () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(totalPrice(0.1, 3)).toBe(0.3);
    expect(totalPrice(0.0125, 3)).toBe(0.0375);
    expect(generationChargeText(0.0125, 3)).toBe("$0.038 will be charged");
  });

  it("uses priceIdentity for Pegasus with an AI Clone, the plain price otherwise", () => {
    const priceInfo = { price: 0.03, priceIdentity: 0.05 };
    expect(pegasusUnitPrice(priceInfo, false)).toBe(0.03);
    expect(pegasusUnitPrice(priceInfo, true)).toBe(0.05);
    expect(pegasusUnitPrice({ price: 0.03 }, true)).toBe(0.03);
  });
});

describe("generationReuse", () => {
  it("puts a row's prompt, negative prompt and size back", () => {
    expect(
      generationReuse({ prompt: "A red fox", negative_prompt: "blurry", width: 1024, height: 576 }),
    ).toEqual({
      prompt: "A red fox",
      negativePrompt: "blurry",
      size: { width: 1024, height: 576 },
      identityId: null,
      artistic: false,
    });
  });

  it("reads sizes and flags sent as multipart text, and the AI Clone of a Pegasus row", () => {
    expect(
      generationReuse({ prompt: "Me", width: "820", height: "1024", identity_id: "idt-1", artistic: "true" }),
    ).toMatchObject({ size: { width: 820, height: 1024 }, identityId: "idt-1", artistic: true });
  });

  it("treats an empty negative prompt as none and a missing size as the default", () => {
    expect(generationReuse({ prompt: "x", negative_prompt: "  " })).toMatchObject({
      negativePrompt: null,
      size: { width: 1024, height: 1024 },
    });
  });
});

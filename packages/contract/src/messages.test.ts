import { describe, expect, it } from "vitest";
import { TWO_FACTOR_REQUIRED } from "./account-security";
import { WEBHOOK_EVENT_LABELS } from "./calls/webhooks";
import { imageExtensionFeature, transcriptionFeature, upscalingFeature } from "./catalog";
import {
  AUDIO_TYPE_REFUSED,
  chargeNoticeText,
  formatBalance,
  formatCost,
  formatMicros,
  IMAGE_TYPE_REFUSED,
  keySpendCapReachedText,
  listText,
  TRAINING_FAILED_REFUNDED,
} from "./messages";

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

describe("texts built from their constants", () => {
  it("lists items with commas and the conjunction before the last", () => {
    expect(listText([50, 80, 100], "and")).toBe("50, 80 and 100");
    expect(listText(["a", "b"], "or")).toBe("a or b");
    expect(listText(["a"], "and")).toBe("a");
    expect(listText([], "and")).toBe("");
  });

  it("reads exactly as the texts typed out before them", () => {
    expect(TRAINING_FAILED_REFUNDED).toBe(
      "The training failed on the model server. You were not charged for it.",
    );
    expect(IMAGE_TYPE_REFUSED).toBe("Only .jpg, .jpeg, .png and .webp images are accepted.");
    expect(AUDIO_TYPE_REFUSED).toBe("Only .mp3, .wav, .ogg and .flac audio files are accepted.");
    expect(TWO_FACTOR_REQUIRED).toBe(
      "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
    );
    expect(WEBHOOK_EVENT_LABELS["budget.threshold"]).toBe("The monthly budget reached 50, 80 or 100 %");
    expect(upscalingFeature.description).toBe(
      "Enlarges an image of up to 4 megapixels while keeping it sharp.",
    );
    expect(transcriptionFeature.description).toBe(
      "Transcribes speech in an audio file of up to 5 minutes into timed text segments.",
    );
    expect(imageExtensionFeature.description).toBe(
      "Extends an image beyond its borders; no side of the result may exceed 4096 px.",
    );
  });

  it("writes a key's spend cap as a balance: exact cents and thousands separators", () => {
    expect(keySpendCapReachedText("monthly", 12.5)).toBe(
      "This API key has reached its spend cap of $12.50 for this month.",
    );
    // toFixed(2) wrote $1.00: the double nearest 1.005 lies just below it.
    expect(keySpendCapReachedText("monthly", 1.005)).toBe(
      "This API key has reached its spend cap of $1.01 for this month.",
    );
    expect(keySpendCapReachedText("lifetime", 1234)).toBe(
      "This API key has reached its lifetime spend cap of $1,234.00.",
    );
  });
});

import { describe, expect, it } from "vitest";
import {
  formatTimestamp,
  jsonDataUrl,
  transcriptionOf,
  transcriptionPriceLine,
  transcriptText,
} from "./transcription";

describe("formatTimestamp", () => {
  it("shows tenths of a second", () => {
    expect(formatTimestamp(0)).toBe("0:00.0");
    expect(formatTimestamp(3.42)).toBe("0:03.4");
    expect(formatTimestamp(61.05)).toBe("1:01.0");
  });
});

describe("transcriptionPriceLine", () => {
  it("rounds the audio up to whole minutes", () => {
    expect(transcriptionPriceLine(0.006, 2.8)).toBe("$0.006 per minute · 1 minute: $0.006 will be charged");
    expect(transcriptionPriceLine(0.006, 60)).toBe("$0.006 per minute · 1 minute: $0.006 will be charged");
    expect(transcriptionPriceLine(0.006, 60.5)).toBe("$0.006 per minute · 2 minutes: $0.012 will be charged");
    expect(transcriptionPriceLine(0.006, 299)).toBe("$0.006 per minute · 5 minutes: $0.030 will be charged");
  });

  it("shows only the rate before a file is chosen", () => {
    expect(transcriptionPriceLine(0.006, null)).toBe("$0.006 per minute");
  });
});

describe("transcriptionOf", () => {
  it("reads the stored body with its segments and duration", () => {
    const body = {
      language: "en",
      duration: 2.79,
      segments: [
        { start: 0.2, end: 1.1, text: "go forward" },
        { start: 1.3, end: 2.5, text: " ten meters " },
      ],
    };
    const result = transcriptionOf(body);
    expect(result?.duration).toBe(2.79);
    expect(result?.segments).toHaveLength(2);
    expect(result && transcriptText(result)).toBe("go forward ten meters");
  });

  it("is null without a transcription body", () => {
    expect(transcriptionOf(undefined)).toBeNull();
    expect(transcriptionOf({ identityId: "x" })).toBeNull();
  });
});

describe("jsonDataUrl", () => {
  it("encodes the body as a JSON download", () => {
    const url = jsonDataUrl({ language: "en", segments: [] });
    expect(url.startsWith("data:application/json;charset=utf-8,")).toBe(true);
    expect(JSON.parse(decodeURIComponent(url.split(",").slice(1).join(",")))).toEqual({
      language: "en",
      segments: [],
    });
  });
});

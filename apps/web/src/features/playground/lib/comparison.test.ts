import { FEATURES, type Feature } from "@prism/contract";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../api/use-history";
import { comparisonOf } from "./comparison";

function doneItem(files: Record<string, string[]>, body: Record<string, unknown> = {}): HistoryItem {
  return {
    id: "r1",
    key: "r1",
    local: false,
    request_date: "2026-11-03T16:05:00Z",
    cost: 0.02,
    request_data: { files, body },
    response_data: { file: "/v1/files/o/p/result" },
    status: "done",
  };
}

const feature = (id: Feature["id"]) => FEATURES.find((candidate) => candidate.id === id)!;

describe("before/after comparisons", () => {
  it("compares every edit's changed picture with its result", () => {
    const edits: [Feature["id"], string][] = [
      ["image-background-removal", "image"],
      ["object-removal", "image"],
      ["text-removal", "image"],
      ["image-upscaling", "image"],
      ["generative-fill", "image"],
      ["reimagine", "image"],
      ["identity-inpainting", "image"],
      ["face-swapping", "target"],
    ];
    for (const [id, field] of edits) {
      const item = doneItem({ [field]: ["/v1/files/o/p/before"], mask: ["/v1/files/o/p/mask"] });
      expect(comparisonOf(feature(id), item), id).toEqual({
        before: "/v1/files/o/p/before",
        after: "/v1/files/o/p/result",
      });
    }
  });

  it("compares the target, not the source face, of a face swap", () => {
    const item = doneItem({ source: ["/v1/files/o/p/face"], target: ["/v1/files/o/p/target"] });
    expect(comparisonOf(feature("face-swapping"), item)?.before).toBe("/v1/files/o/p/target");
  });

  it("places the original inside an extended result by the pixels added on each side", () => {
    const item = doneItem({ image: ["/v1/files/o/p/before"] }, { top: 100, bottom: 0, left: 32, right: "8" });
    expect(comparisonOf(feature("image-extension"), item)?.inset).toEqual({
      top: 100,
      right: 8,
      bottom: 0,
      left: 32,
    });
  });

  it("offers none for generation, training, speech, or a row that has not finished", () => {
    for (const id of [
      "image-generation",
      "pegasus-generation",
      "pegasus-training",
      "speech-to-text",
    ] as const) {
      expect(comparisonOf(feature(id), doneItem({ image: ["/v1/files/o/p/x"] })), id).toBeUndefined();
    }
    const generating = { ...doneItem({ image: ["/v1/files/o/p/x"] }), status: "generating" as const };
    expect(comparisonOf(feature("image-upscaling"), generating)).toBeUndefined();
    expect(comparisonOf(feature("image-upscaling"), doneItem({}))).toBeUndefined();
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDER_SETUPS } from "@prism/contract";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_COMFYUI_MODELS,
  DEFAULT_FAL_MODELS,
  DEFAULT_REPLICATE_MODELS,
  loadModelMaps,
} from "./model-map";
import { isAllowedResultUrl } from "./upstream";

function mapFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "prism-models-")), "models.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("model maps", () => {
  it.each([
    ["replicate", DEFAULT_REPLICATE_MODELS],
    ["fal", DEFAULT_FAL_MODELS],
    ["comfyui", DEFAULT_COMFYUI_MODELS],
  ] as const)("ship a %s model for every feature its row of the providers table names", (provider, map) => {
    const row = PROVIDER_SETUPS.find((setup) => setup.provider === provider)!;
    expect(Object.keys(map).sort()).toEqual([...row.features].sort());
  });

  it("lay the operator's file over the shipped map, feature by feature", () => {
    const maps = loadModelMaps(
      mapFile({
        replicate: { "image-generation": { model: "acme/my-flux:abc123", input: { prompt: "$prompt" } } },
      }),
    );
    expect(maps.replicate["image-generation"]).toEqual({
      model: "acme/my-flux:abc123",
      input: { prompt: "$prompt" },
    });
    expect(maps.replicate["image-upscaling"]).toEqual(DEFAULT_REPLICATE_MODELS["image-upscaling"]);
    expect(maps.fal).toEqual(DEFAULT_FAL_MODELS);
  });

  it("refuse a file that names an unknown feature or field, saying where", () => {
    expect(() => loadModelMaps(mapFile({ replicate: { "image-generaton": { model: "a/b" } } }))).toThrow(
      /PROVIDER_MODELS_FILE: .* is not a valid model map \(replicate: .*"image-generaton"/,
    );
    expect(() => loadModelMaps(mapFile({ fal: { reimagine: { model: "x", inputs: {} } } }))).toThrow(
      /fal\.reimagine/,
    );
    expect(() => loadModelMaps(mapFile("{ not json"))).toThrow(/could not be read as JSON/);
  });
});

describe("result hosts", () => {
  const hosts = ["replicate.delivery", ".replicate.delivery", "127.0.0.1:4010"];
  it.each([
    ["https://replicate.delivery/xezq/out-0.png", true],
    ["https://pbxt.replicate.delivery/out.png", true],
    ["http://replicate.delivery/out.png", false],
    ["https://replicate.delivery.evil.com/out.png", false],
    ["https://evilreplicate.delivery/out.png", false],
    ["http://127.0.0.1:4010/delivery/x.png", true],
    ["http://127.0.0.1:4011/delivery/x.png", false],
    ["http://169.254.169.254/latest/meta-data", false],
    ["https://user:pass@replicate.delivery/x.png", false],
  ])("%s allowed: %s", (url, allowed) => {
    expect(isAllowedResultUrl(new URL(url), hosts)).toBe(allowed);
  });
});

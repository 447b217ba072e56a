import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_STATUS as CONTRACT_ERROR_STATUS, FEATURES as CONTRACT_FEATURES } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { camelCase, contractSource } from "../scripts/contract-source";
import { ERROR_STATUS, FEATURES } from "./contract.generated.js";

const generatedPath = fileURLToPath(new URL("./contract.generated.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

describe("contract.generated.ts", () => {
  it("is what the generator writes from the contract now (else run `npm run generate -w @prism/sdk`)", () => {
    const formatted = execFileSync(
      `${repoRoot}node_modules/.bin/biome`,
      ["format", `--stdin-file-path=${generatedPath}`],
      { input: contractSource(), cwd: repoRoot, encoding: "utf8" },
    );
    expect(readFileSync(generatedPath, "utf8")).toBe(formatted);
  });

  it("has every feature of the catalog, with its endpoint and fields, and every error code", () => {
    expect(ERROR_STATUS).toEqual(CONTRACT_ERROR_STATUS);
    expect(FEATURES.map((feature) => [feature.id, feature.endpoint, feature.method])).toEqual(
      CONTRACT_FEATURES.map((feature) => [feature.id, feature.endpoint, camelCase(feature.id)]),
    );
    const generation = FEATURES.find((feature) => feature.id === "pegasus-generation");
    expect(generation?.fields).toEqual(["prompt", "width", "height", "identity_id", "artistic"]);
    expect(generation?.headers).toEqual({ identityRequestId: "x-authorization-identity-request-id" });
  });
});

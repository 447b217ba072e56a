// Writes src/contract.generated.ts from packages/contract, formatted as the repository formats it.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { contractSource } from "./contract-source";

const target = fileURLToPath(new URL("../src/contract.generated.ts", import.meta.url));
writeFileSync(target, contractSource());
execFileSync("npx", ["biome", "format", "--write", target], { stdio: "inherit" });

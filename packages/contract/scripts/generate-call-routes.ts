// Writes src/call-routes.generated.ts from the call registry, formatted as the repository formats it.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { callRoutesSource, routesOf } from "../src/call-routes";
import { calls } from "../src/calls";

const target = fileURLToPath(new URL("../src/call-routes.generated.ts", import.meta.url));
writeFileSync(target, callRoutesSource(routesOf(calls)));
execFileSync("npx", ["biome", "format", "--write", target], { stdio: "inherit" });

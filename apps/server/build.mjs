// Bundles the server into dist/main.js. Workspace packages (the contract) are bundled in, because they
// ship TypeScript source; every npm dependency stays external and is loaded from node_modules.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const external = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).filter(
  (name) => !name.startsWith("@prism/"),
);

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  // Subpath imports of externals (drizzle-orm/pg-core, ...) must stay external too.
  external: [...external, ...external.map((name) => `${name}/*`)],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
});

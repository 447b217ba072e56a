// Bundles the server into dist/main.js. The workspace packages (contract, engine) ship TypeScript
// source, so they are compiled in; every npm package stays external and loads from node_modules.
import { build } from "esbuild";

/** @type {import("esbuild").Plugin} */
const externalizeNpmPackages = {
  name: "externalize-npm-packages",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@prism/") || args.path.startsWith("node:")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  plugins: [externalizeNpmPackages],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
});

// The server's bundle, as production runs it: `build.mjs` writes dist/main.js with it, and the server's
// test suite bundles the same way into a file of its own (test/server-bundle-setup.ts) for the tests that
// start the server as a process. The workspace packages (contract, engine) ship TypeScript source, so
// they are compiled in.
import { build } from "esbuild";

/**
 * npm packages compiled into the bundle instead of loaded from node_modules. drizzle-orm's package.json
 * is 179 KB of `exports`, and Node's ES module loader reads the package's configuration again for each
 * of the 127 files of it the server imports: 1.2 s of CPU at every start (issue 28 measured a start on an
 * existing data directory at 3.4 s before, 2.5 s after). It is plain JavaScript with no files of its own
 * to find at run time.
 */
const BUNDLED_PACKAGES = /^drizzle-orm(\/|$)/;

/** @type {import("esbuild").Plugin} */
const externalizeNpmPackages = {
  name: "externalize-npm-packages",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@prism/") || args.path.startsWith("node:")) return undefined;
      if (BUNDLED_PACKAGES.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bundles src/main.ts into `outfile`, which must sit one folder below the server package (as dist/main.js
 * does): src/paths.ts finds the migrations and the web build from there.
 * @param {string} outfile
 */
export async function bundleServer(outfile) {
  await build({
    absWorkingDir: import.meta.dirname,
    entryPoints: ["src/main.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    sourcemap: true,
    plugins: [externalizeNpmPackages],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
}

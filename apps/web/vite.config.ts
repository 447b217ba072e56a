import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// The API server runs on port 3000 (or $PORT) in development; the console is served by Vite on 5173 and proxies
// every server path through, so cookies stay first-party and the browser sees one origin.
const API_TARGET = `http://localhost:${process.env.PORT ?? "3000"}`;

const TEXT_FILE = /\.(?:js|css|html|svg|json|txt|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, at the strongest settings (the
 * cost is paid once, here), which the server sends with `@fastify/static`'s `preCompressed` to clients
 * that accept them. Source maps are left alone: only developer tools fetch them.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "prism-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          // A file too small to gain is served as it is (the server falls back to the plain file).
          if (br.length < content.length) await writeFile(`${file}.br`, br);
          if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/v1": API_TARGET,
      "/healthz": API_TARGET,
      "/dev": API_TARGET,
      "/docs": API_TARGET,
    },
  },
  preview: {
    port: 5173,
  },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    // The production page runs under a CSP without 'unsafe-inline' scripts: keep every module in a
    // hashed file and never inline the module-preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // React and the router are on every page and change least often: one chunk that stays cached
        // across releases. Everything else is split by route (issue 16): a group for all of @mantine/*
        // or all of node_modules would send charts, dates and the dropzone to the sign-in page.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // Popovers, tooltips and menus only: left to the default grouping, Mantine's small shared
            // hooks landed in this chunk and pulled all 40 KB of it onto the sign-in page.
            { name: "floating-ui", test: /node_modules[\\/]@floating-ui[\\/]/ },
            // Same for the modals' and toasts' scroll lock, which loads when one is first shown.
            {
              name: "remove-scroll",
              test: /node_modules[\\/](react-remove-scroll|react-remove-scroll-bar|use-sidecar|react-style-singleton|use-callback-ref|get-nonce)[\\/]/,
            },
          ],
        },
      },
    },
  },
});

import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API server runs on port 3000 (or $PORT) in development; the console is served by Vite on 5173 and proxies
// every server path through, so cookies stay first-party and the browser sees one origin.
const API_TARGET = `http://localhost:${process.env.PORT ?? "3000"}`;

export default defineConfig({
  plugins: [react()],
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
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: "mantine", test: /node_modules[\\/]@mantine[\\/]/ },
            { name: "vendor", test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});

import { defineConfig } from "vitest/config";

// End-to-end journeys: one real server (built app, temp DATA_DIR) for the run, one Chromium per file.
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The browser and server are heavy; journeys run one file at a time on a 2-core machine.
    fileParallelism: false,
  },
});

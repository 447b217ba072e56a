import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "sdk",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
    // The tests start the real server in-process (apps/server/test/test-app.ts), on a copy of the run's
    // migrated template: PGlite's, or PostgreSQL's when DATABASE_URL is set.
    globalSetup: ["../../apps/server/test/global-setup.ts"],
    // One module graph per worker, as in the server's suite: each file imports the whole server to start
    // it, and importing it once per worker took the suite's import time from 19 s to 11 s (issue 28).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

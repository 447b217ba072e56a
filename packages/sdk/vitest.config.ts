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
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

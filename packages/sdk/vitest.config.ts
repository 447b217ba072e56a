import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "sdk",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
    // The tests start the real server in-process (apps/server/test/test-app.ts): on PGlite from the
    // migrated template, or on a fresh PostgreSQL database when DATABASE_URL is set.
    globalSetup: process.env.DATABASE_URL ? [] : ["../../apps/server/test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

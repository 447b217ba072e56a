import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
    // The PGlite template is only needed when the suite runs on the embedded database.
    globalSetup: process.env.DATABASE_URL ? [] : ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

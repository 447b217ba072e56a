import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "engine",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

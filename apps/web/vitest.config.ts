import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Component and unit tests of the console. End-to-end journeys live in vitest.e2e.config.ts.
export default defineConfig({
  plugins: [react()],
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    css: false,
    // jsdom with user-event typing is CPU-bound: on a loaded two-core CI machine a form test can pass
    // 5 s without anything being wrong.
    testTimeout: 20_000,
  },
});

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
    // One module graph per worker instead of per file: importing React, Mantine and the app again for
    // each of the 71 files was most of the suite's import time (issue 28). Each file still renders into a
    // clean document (Testing Library's cleanup) against its own MSW handlers (src/test/setup.ts).
    isolate: false,
  },
});

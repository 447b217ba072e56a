import { defineConfig } from "vitest/config";
import LongestFirstSequencer from "./apps/web/e2e/longest-first.ts";

// One runner for the whole repository: each workspace is a project, so `npm run test:unit` and CI
// see a single summary. End-to-end journeys are their own project because they need a built app.
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: one file at a time on CI's two
    // cores. The server's files wait on databases and child processes much of the time, so two
    // workers took the unit suite from 526 s to 397 s on PGlite and from 456 s to 311 s on PostgreSQL
    // (three: 388 s, the cores saturated). The journeys keep their own one-file-at-a-time setting.
    maxWorkers: 2,
    // Only the run's order changes: the accessibility walks start first (apps/web/e2e/longest-first.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: "contract",
          root: "packages/contract",
          include: ["src/**/*.test.ts"],
          environment: "node",
        },
      },
      "packages/engine/vitest.config.ts",
      "apps/server/vitest.config.ts",
      "packages/sdk/vitest.config.ts",
      "apps/web/vitest.config.ts",
      "apps/web/vitest.e2e.config.ts",
    ],
  },
});

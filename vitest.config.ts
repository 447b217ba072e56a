import { defineConfig } from "vitest/config";

// One runner for the whole repository: each workspace is a project, so `npm run test:unit` and CI
// see a single summary. End-to-end journeys are their own project because they need a built app.
export default defineConfig({
  test: {
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
      "apps/web/vitest.config.ts",
      "apps/web/vitest.e2e.config.ts",
    ],
  },
});

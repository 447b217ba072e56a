import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts"],
    environment: "node",
    // The run's migrated template database, on PGlite or on DATABASE_URL's server.
    globalSetup: ["test/global-setup.ts", "test/server-bundle-setup.ts"],
    // One module graph per worker instead of per file: every file imports the whole server (Fastify,
    // Drizzle, the AWS SDK, Stripe...), and importing it again for each file was a third of the
    // project's time (157 s -> 100 s in issue 28's measurement). Each file still builds its own app on
    // its own database (test/test-app.ts); files that fake timers restore them.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

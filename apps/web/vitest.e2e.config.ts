import { configDefaults, defineConfig } from "vitest/config";

/**
 * Journeys run in parallel, one file per worker at a time, each file against its own console server
 * and model server (e2e/journey-servers.ts) on a fresh database, so no file sees another's data or
 * model-server controls. Three workers (E2E_WORKERS) on CI's two cores: the browsers, servers and model
 * stubs wait on each other part of the time (issue 28 measured 505 s one file at a time and 229 s on
 * three). A test's timeout is generous for a loaded two-core machine: a slow step is not a failing one,
 * a stuck one still is.
 */
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["e2e/**/*.e2e.test.ts"],
    // The `*-pglite` files repeat a journey on the embedded database beside a run on PostgreSQL; on a
    // run that is on PGlite already they would only repeat it.
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.DATABASE_URL ? [] : ["e2e/**/*-pglite.e2e.test.ts"]),
    ],
    environment: "node",
    setupFiles: ["e2e/journey-servers.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default, less than a page takes to settle on a loaded CI machine
    // (the shell journey's scroll check failed so there): a journey's polls wait as its locators do.
    expect: { poll: { timeout: 15_000 } },
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    // Runs after the other projects when one command names them all, with its own number of workers.
    sequence: { groupOrder: 1 },
  },
});

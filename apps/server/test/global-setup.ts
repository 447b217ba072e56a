import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createFreshDatabase } from "@prism/test-support/postgres";
import type { TestProject } from "vitest/node";
import { bundleServer } from "../bundle.mjs";
import { openDatabase } from "../src/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, dumped once per run and loaded by every test file (PGlite runs). */
    pgliteTemplatePath: string;
    /** A migrated database on the DATABASE_URL server that every test file's database copies (PostgreSQL runs). */
    postgresTemplate: string;
    /** The server bundled as production runs it, for the tests that start it as a process (server-process.ts). */
    serverBundlePath: string;
  }
}

/** What every test file of the run shares: the server bundle and the migrated template database. */
export default async function setup(project: TestProject) {
  const removeBundle = await provideServerBundle(project);
  const removeTemplate = await provideTemplate(project);
  return async () => {
    await removeTemplate();
    removeBundle();
  };
}

/**
 * The tests that start the server as a process run the bundle production runs (bundle.mjs), built once a
 * run: a process started from the TypeScript sources through tsx took 1.5 s more CPU to start (its
 * loader hooks answer every import from another thread), and the suites start about twenty. Beside
 * dist/main.js, as src/paths.ts requires, under a name of this run's own.
 */
async function provideServerBundle(project: TestProject) {
  const bundlePath = resolve(import.meta.dirname, `../dist/process-test-${process.pid}-${Date.now()}.js`);
  await bundleServer(bundlePath);
  project.provide("serverBundlePath", bundlePath);
  return () => {
    rmSync(bundlePath, { force: true });
    rmSync(`${bundlePath}.map`, { force: true });
  };
}

/**
 * Creating and migrating a database takes seconds on PGlite and most of a second of CPU on PostgreSQL;
 * copying a migrated one takes a fraction of that. So the run migrates once and each test file starts
 * from a copy (epic-stack's global setup): on PGlite a dump of the data directory, on PostgreSQL a
 * template database (`CREATE DATABASE ... TEMPLATE`). Each file still runs the migrator on its copy, as
 * the server does at every start, which finds nothing left to apply.
 */
async function provideTemplate(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = await createFreshDatabase(serverUrl, "prism_template");
    const handle = openDatabase({ databaseUrl: template.url });
    try {
      await handle.migrate();
    } finally {
      // A template must have no connection open while it is copied.
      await handle.close();
    }
    project.provide("postgresTemplate", template.name);
    return () => template.drop();
  }

  const dir = mkdtempSync(join(tmpdir(), "prism-pglite-template-"));
  const templatePath = join(dir, "migrated.tar");
  const handle = openDatabase({});
  await handle.migrate();
  const dump = await handle.dumpDataDir();
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteTemplatePath", templatePath);
  return () => rmSync(dir, { recursive: true, force: true });
}

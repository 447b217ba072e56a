import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFreshDatabase } from "@prism/test-support/postgres";
import type { TestProject } from "vitest/node";
import { openDatabase, pgliteDirFor } from "../src/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, made once per run and copied for every test file (PGlite runs). */
    pgliteTemplateDir: string;
    /** A migrated database on the DATABASE_URL server that every test file's database copies (PostgreSQL runs). */
    postgresTemplate: string;
  }
}

/**
 * Creating and migrating a database takes seconds on PGlite and most of a second of CPU on PostgreSQL;
 * copying a migrated one takes a fraction of that. So the run migrates once and each test file starts
 * from a copy (epic-stack's global setup): on PGlite a copy of the data directory, opened where it lies
 * as the server opens DATA_DIR's; on PostgreSQL a template database (`CREATE DATABASE ... TEMPLATE`).
 * Each file still runs the migrator on its copy, as the server does at every start, which finds nothing
 * left to apply.
 */
export default async function setup(project: TestProject) {
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
  const templateDir = pgliteDirFor(dir);
  const handle = openDatabase({ pgliteDir: templateDir });
  await handle.migrate();
  // Closed, the directory is a cleanly shut down cluster that any number of copies can start from.
  await handle.close();
  project.provide("pgliteTemplateDir", templateDir);
  return () => rmSync(dir, { recursive: true, force: true });
}

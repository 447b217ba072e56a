import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, dumped once per run and loaded by every test file. */
    pgliteTemplatePath: string;
  }
}

/**
 * Creating and migrating a PGlite database takes seconds; loading a dump of one takes a fraction of
 * that. So the run migrates once and each test file starts from a copy (epic-stack's global setup).
 */
export default async function setup(project: TestProject) {
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

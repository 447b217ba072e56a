import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { bundleServer } from "../bundle.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server bundled as production runs it, for the tests that start it as a process (server-process.ts). */
    serverBundlePath: string;
  }
}

/**
 * The tests that start the server as a process run the bundle production runs (bundle.mjs), built once a
 * run: a process started from the TypeScript sources through tsx took 1.5 s more CPU to start (its
 * loader hooks answer every import from another thread), and the suite starts about twenty. Beside
 * dist/main.js, as src/paths.ts requires, under a name of this run's own. A global setup of the server
 * project only: the SDK's suite, which shares test/global-setup.ts, starts no server process.
 */
export default async function setup(project: TestProject) {
  const bundlePath = resolve(import.meta.dirname, `../dist/process-test-${process.pid}-${Date.now()}.js`);
  await bundleServer(bundlePath);
  project.provide("serverBundlePath", bundlePath);
  return () => {
    rmSync(bundlePath, { force: true });
    rmSync(`${bundlePath}.map`, { force: true });
  };
}

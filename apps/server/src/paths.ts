import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// This file sits directly in `src/`, and the production bundle is `dist/main.js`: in both cases the
// parent of this module's folder is the server package, so paths below hold in dev, tests and prod.
const here = dirname(fileURLToPath(import.meta.url));

export const SERVER_ROOT = resolve(here, "..");
export const MIGRATIONS_DIR = resolve(SERVER_ROOT, "drizzle");
export const DEFAULT_WEB_DIST_DIR = resolve(SERVER_ROOT, "../web/dist");

export function hasBuiltWeb(webDistDir: string): boolean {
  return existsSync(resolve(webDistDir, "index.html"));
}

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * The installed folder of a package, found along Node's module search paths (some model packages
 * export neither a main entry nor their package.json).
 */
export function packageRoot(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = join(base, name);
    if (existsSync(join(dir, "package.json"))) {
      return dir;
    }
  }
  throw new Error(`The package ${name} is not installed.`);
}

// Exits 0 when <root>/node_modules holds exactly the tree package-lock.json describes: npm's hidden lock
// file (written by the install that made the tree) lists the same packages at the same versions and
// integrity. Used by scripts/image-check.sh to reuse CI's `npm ci` instead of running a second one.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = process.argv[2] ?? ".";
const hiddenPath = join(root, "node_modules/.package-lock.json");
if (!existsSync(hiddenPath)) {
  console.error("no node_modules/.package-lock.json: not installed by npm ci");
  process.exit(1);
}
const locked = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages;
const installed = JSON.parse(readFileSync(hiddenPath, "utf8")).packages;
const describe = (entry) =>
  entry ? JSON.stringify([entry.version, entry.resolved, entry.integrity, entry.link ?? false]) : "absent";
const differences = [];
for (const path of new Set([...Object.keys(locked), ...Object.keys(installed)])) {
  // The root package itself is never in the hidden lock file; npm leaves out extraneous optional
  // packages for other platforms, which is also what npm ci installs on this one.
  if (path === "" || (!(path in installed) && locked[path]?.optional)) continue;
  if (describe(locked[path]) !== describe(installed[path])) differences.push(path);
}
if (differences.length > 0) {
  console.error(`node_modules differs from package-lock.json at ${differences.slice(0, 5).join(", ")}`);
  process.exit(1);
}

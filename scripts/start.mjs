// `npm start`: build what is missing or stale, then serve the console on the embedded defaults.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = new URL("..", import.meta.url).pathname;

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "dist") continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function isStale(output, inputs) {
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  return inputs.some((input) => existsSync(input) && newestMtime(input) > builtAt);
}

function run(args) {
  const result = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const contract = join(root, "packages/contract/src");
if (
  isStale(join(root, "apps/web/dist/index.html"), [
    join(root, "apps/web/src"),
    join(root, "apps/web/index.html"),
    contract,
  ])
) {
  run(["run", "build", "-w", "@prism/web"]);
}
if (isStale(join(root, "apps/server/dist/main.js"), [join(root, "apps/server/src"), contract])) {
  run(["run", "build", "-w", "@prism/server"]);
}

// The server runs in this process rather than a second one: one Node start-up less (issue 16), and the
// server's own signal handling (graceful shutdown) applies as it is.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(root, "apps/server/dist/main.js")).href);

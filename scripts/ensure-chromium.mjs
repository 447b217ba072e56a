// Makes sure a Chromium for the end-to-end tests exists: CHROMIUM_PATH, else Debian's /usr/bin/chromium.
// As root it installs Debian's package when missing; otherwise it says how to install one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidate = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (existsSync(candidate)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  process.exit(1);
}

if (process.getuid?.() === 0) {
  console.log("Chromium not found: installing Debian's chromium package for the end-to-end tests...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed (exit ${result.status}).`);
      process.exit(1);
    }
  }
  if (existsSync(candidate)) process.exit(0);
}

console.error(
  [
    "The end-to-end tests need Chromium and none was found.",
    "Install Debian's package (sudo apt-get install chromium) or point CHROMIUM_PATH at a Chromium binary.",
  ].join("\n"),
);
process.exit(1);

// Makes sure the Debian packages the test suite needs are present: headless Chromium for the end-to-end
// tests (or CHROMIUM_PATH), and pocketsphinx with its English model plus ffmpeg for the builtin speech to
// text. As root it installs what is missing with apt-get; otherwise it says how to install it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumPath, DEFAULT_CHROMIUM_PACKAGE } from "../packages/test-support/src/chromium.mjs";

const needs = [
  { binary: chromiumPath(), packages: process.env.CHROMIUM_PATH ? [] : [DEFAULT_CHROMIUM_PACKAGE] },
  { binary: "/usr/bin/pocketsphinx_continuous", packages: ["pocketsphinx"] },
  { binary: "/usr/share/pocketsphinx/model/en-us/en-us", packages: ["pocketsphinx-en-us"] },
  { binary: "/usr/bin/ffmpeg", packages: ["ffmpeg"] },
];

const missing = needs.filter((need) => !existsSync(need.binary));
if (missing.length === 0) process.exit(0);

const packages = [...new Set(missing.flatMap((need) => need.packages))];
if (packages.length === 0) {
  console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  process.exit(1);
}

if (process.getuid?.() === 0) {
  console.log(`Installing Debian packages the tests need: ${packages.join(", ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...packages]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed (exit ${result.status}).`);
      process.exit(1);
    }
  }
  const stillMissing = needs.filter((need) => !existsSync(need.binary));
  if (stillMissing.length === 0) process.exit(0);
  console.error(`Still missing after install: ${stillMissing.map((need) => need.binary).join(", ")}`);
  process.exit(1);
}

console.error(
  [
    `The tests need Debian packages that are not installed: ${packages.join(", ")}.`,
    `Install them with: sudo apt-get install ${packages.join(" ")}`,
    "(or point CHROMIUM_PATH at a Chromium binary for the end-to-end tests).",
  ].join("\n"),
);
process.exit(1);

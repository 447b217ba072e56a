// Adds up Vitest's "Tests  N failed | M passed" lines from the given logs into one closing line.
import { readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes.
  const text = readFileSync(file, "utf8").replace(/\u001b\[[0-9;]*m/g, "");
  for (const line of text.split("\n")) {
    const match = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
    if (!match) continue;
    for (const part of match[1].split("|")) {
      const [, count, kind] = /(\d+)\s+(\w+)/.exec(part.trim()) ?? [];
      if (kind === "passed") passed += Number(count);
      else if (kind === "failed") failed += Number(count);
      else if (kind === "skipped" || kind === "todo") skipped += Number(count);
    }
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);

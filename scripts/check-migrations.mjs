// Fails when src/db/schema.ts has changes that no committed migration covers.
import { spawnSync } from "node:child_process";

const serverDir = new URL("../apps/server/", import.meta.url).pathname;
const generate = spawnSync("npx", ["drizzle-kit", "generate", "--name", "stale_check"], {
  cwd: serverDir,
  encoding: "utf8",
});
process.stdout.write(generate.stdout);
process.stderr.write(generate.stderr);
if (generate.status !== 0) process.exit(generate.status ?? 1);
const status = spawnSync("git", ["status", "--porcelain", "--", "drizzle"], {
  cwd: serverDir,
  encoding: "utf8",
});
if (status.stdout.trim() !== "") {
  console.error(
    "The schema has changes without a migration. Run `npm run db:generate` and commit the result:",
  );
  console.error(status.stdout);
  spawnSync("git", ["checkout", "--", "drizzle"], { cwd: serverDir });
  spawnSync("git", ["clean", "-fdq", "--", "drizzle"], { cwd: serverDir });
  process.exit(1);
}
console.log("Migrations are up to date.");

// Start-up time: `npm start` (scripts/start.mjs, the app already built) until /healthz answers 200, on a
// new data directory (PGlite created and migrated) and then again on the same one (nothing to migrate),
// each RUNS times; prints the median of each. Builds nothing: run `npm run build` first.
//
//   node bench/start.mjs          (RUNS=5 by default; PRISM_ROOT=<another built checkout> to compare)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { resolve } from "node:path";

const RUNS = Number(process.env.RUNS ?? 5);
const root = process.env.PRISM_ROOT ? resolve(process.env.PRISM_ROOT) : resolve(import.meta.dirname, "..");

async function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** Milliseconds from spawning `npm start` to the first 200 from /healthz; the server is stopped after. */
async function timeStart(dataDir) {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  const startedAt = performance.now();
  const child = spawn("npm", ["start", "--silent"], { cwd: root, env, stdio: "inherit", detached: true });
  const url = `http://127.0.0.1:${port}/healthz`;
  let elapsed;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) {
        elapsed = performance.now() - startedAt;
        break;
      }
    } catch {
      // Not listening yet.
    }
    if (performance.now() - startedAt > 60_000) throw new Error("not healthy within 60 s");
    await new Promise((done) => setTimeout(done, 10));
  }
  const exited = new Promise((done) => child.once("exit", done));
  process.kill(-child.pid, "SIGTERM");
  await exited;
  return elapsed;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (!existsSync(resolve(root, "apps/server/dist/main.js")))
  throw new Error("the server is not built: run `npm run build` first (this bench builds nothing)");

const loadBefore = loadavg()[0].toFixed(1);
const fresh = [];
const again = [];
for (let run = 0; run < RUNS; run += 1) {
  const dataDir = mkdtempSync(resolve(tmpdir(), "prism-bench-start-"));
  try {
    fresh.push(await timeStart(dataDir));
    again.push(await timeStart(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const show = (values) => `median ${Math.round(median(values))} ms (${values.map(Math.round).join(", ")})`;
console.log(
  `load average before: ${loadBefore}, after: ${loadavg()[0].toFixed(1)} (2 cores: above 2 the times are inflated)`,
);
console.log(`npm start to a healthy /healthz, new data directory:      ${show(fresh)}`);
console.log(`npm start to a healthy /healthz, existing data directory: ${show(again)}`);

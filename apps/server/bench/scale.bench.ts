/**
 * `npm run bench:scale -w @prism/server`: the console and the money path at a million calls (issue 35),
 * on PostgreSQL (DATABASE_URL, default the local server), beside a fresh database in the same run.
 *
 * The big database holds one organization with SCALE_CALLS calls (default 1,000,000) over 60 days: 6
 * features, 3 keys, 5 % failed, 20 % from the console, seeded in SQL with the ledger (a reservation
 * and a settlement or a refund per call), the balance and both daily rollups consistent with the
 * request log, plus SCALE_OTHER_ORGS organizations (default 20) with SCALE_OTHER_CALLS calls each
 * (default 10,000). The fresh database holds one organization with SCALE_FRESH_CALLS calls (1,000).
 * Each read is measured through HTTP, SCALE_ROUNDS times (default 20) after a warm-up, and printed as
 * p50 / p95 beside the fresh figure; then a feature call's own time with and without a loop saving
 * another key's limits, the calls CSV of the busiest month (brotli and plain), and the database's bytes
 * per call (request log, ledger, rollups, with their indexes). SCALE_PARTS=export measures only the
 * export (SCALE_EXPORT_RUNS times; with SCALE_BASELINE, beside another checkout's server); the seeding
 * is the same.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  backgroundRemovalFeature,
  type Feature,
  generativeFillFeature,
  imageGenerationFeature,
  NO_API_KEY_LIMITS,
  objectRemovalFeature,
  REQUESTS_PAGE_SIZE,
  reimagineFeature,
  USAGE_EXPORT_PATH,
  upscalingFeature,
} from "@prism/contract";
import { createFreshDatabase } from "@prism/test-support/postgres";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { buildApp } from "../src/app";
import { createDependencies } from "../src/app-dependencies";
import { loadConfig } from "../src/config";
import { type DatabaseHandle, openDatabase, rowsOf } from "../src/db/client";
import { encodeCursor } from "../src/modules/usage/request-log.service";
import { listRequestLogPage } from "../src/modules/usage/request-log.store";
import { ProviderRegistry } from "../src/providers/inference/registry";
import { multipart } from "../test/images";
import { createBenchAccount } from "./bench-account";
import { echoProvider } from "./echo-provider";

const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SCALE_CALLS = Number(process.env.SCALE_CALLS ?? 1_000_000);
const OTHER_ORGS = Number(process.env.SCALE_OTHER_ORGS ?? 20);
const OTHER_CALLS = Number(process.env.SCALE_OTHER_CALLS ?? Math.min(10_000, Math.ceil(SCALE_CALLS / 100)));
const FRESH_CALLS = Number(process.env.SCALE_FRESH_CALLS ?? 1_000);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 20);
const FEATURE_CALLS = Number(process.env.SCALE_FEATURE_CALLS ?? 60);
const DAYS = 60;
/**
 * The parts measured (SCALE_PARTS, comma-separated, default all): `reads` (keys, history, Requests
 * view), `feature` (a feature call alone and while limits are saved), `export` (the calls CSV).
 */
const PARTS = new Set(
  (process.env.SCALE_PARTS ?? "reads,feature,export").split(",").map((part) => part.trim()),
);
/** Runs of the calls CSV, brotli and plain in turns (SCALE_EXPORT_RUNS, default 1). */
const EXPORT_RUNS = Number(process.env.SCALE_EXPORT_RUNS ?? 1);
/**
 * Other checkouts' `apps/server` directories (SCALE_BASELINE, comma-separated, optional): their servers
 * export the same month from the same database in turns with this one, and the bytes must be the same.
 */
const BASELINES = (process.env.SCALE_BASELINE ?? "").split(",").filter((directory) => directory !== "");

interface ExportRun {
  ms: number;
  cpuMs: number;
  bytes: number;
  sha256: string;
}

/** The baseline checkout's server on `databaseUrl`, listening; its own modules, this run's config. */
async function startBaseline(directory: string, config: ReturnType<typeof loadConfig>, databaseUrl: string) {
  const load = (path: string) => import(pathToFileURL(join(resolve(directory), path)).href);
  const [{ buildApp: build }, { createDependencies: dependencies }, { openDatabase: open }] =
    await Promise.all([load("src/app.ts"), load("src/app-dependencies.ts"), load("src/db/client.ts")]);
  const other = await build(dependencies(config, open({ databaseUrl })), { logger: false, runJobs: false });
  await other.listen({ port: 0, host: "127.0.0.1" });
  const address = other.server.address();
  return {
    base: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    close: () => other.close() as Promise<void>,
  };
}
/** The playground history's deep page, as the issue measured it (clamped to the endpoint's calls). */
const DEEP_HISTORY = 290_000;

const SEEDED_FEATURES: readonly Feature[] = [
  imageGenerationFeature,
  generativeFillFeature,
  objectRemovalFeature,
  backgroundRemovalFeature,
  upscalingFeature,
  reimagineFeature,
];

interface Timing {
  p50: number;
  p95: number;
}

function timingOf(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { p50: at(50), p95: at(95) };
}

async function time(run: () => Promise<unknown>, rounds = ROUNDS): Promise<Timing> {
  await run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const begin = performance.now();
    await run();
    samples.push(performance.now() - begin);
  }
  return timingOf(samples);
}

/**
 * `calls` calls of one organization in SQL, oldest first over the last 60 days, with the ledger, the
 * balance and the rollups as the pipeline would have left them (rollups by the day a call was made).
 */
async function seedCalls(
  database: DatabaseHandle,
  input: { organizationId: string; projectId: string; userId: string; keyIds: string[]; calls: number },
) {
  const { organizationId, projectId, userId, keyIds, calls } = input;
  if (calls === 0) return;
  const features = SEEDED_FEATURES.length;
  const endpoints = `array[${SEEDED_FEATURES.map((feature) => `'${feature.endpoint}'`).join(",")}]`;
  const callTypes = `array[${SEEDED_FEATURES.map((feature) => `'${feature.callTypes[0]?.callType}'`).join(",")}]`;
  const keys = `array[${keyIds.map((id) => `'${id}'::uuid`).join(",")}]`;
  const db = database.db;
  await db.execute(
    sql.raw(`insert into feature_requests (organization_id, project_id, user_id, api_key_id, endpoint,
       call_type, status, provider, request_files, request_body, response_file, response_body, units,
       price_micros, error_message, error_code, created_at, completed_at, client_ip)
     select '${organizationId}', '${projectId}', '${userId}',
       case when i % 5 = 0 then null else (${keys})[1 + (i % ${keyIds.length})] end,
       (${endpoints})[1 + (i % ${features})], (${callTypes})[1 + (i % ${features})],
       case when i % 20 = 7 then 'error' else 'done' end, 'http',
       '{"image": ["${organizationId}/${projectId}/input.png"]}'::jsonb,
       jsonb_build_object('prompt', 'an astronaut riding a horse on the moon, photorealistic', 'width', 1024,
         'height', 1024, 'seed', i),
       case when i % 20 = 7 then null else '${organizationId}/${projectId}/' || md5(i::text) || '.png' end,
       null, 1, 10000 * (1 + i % ${features}),
       case when i % 20 = 7 then 'The provider failed.' end, case when i % 20 = 7 then 'provider-error' end,
       at, at + interval '2 seconds', case when i % 5 = 0 then null else '203.0.113.7' end
     from generate_series(1, ${calls}) as i,
       lateral (select now() - interval '${DAYS} days' + i * (interval '${DAYS} days' / ${calls}) as at) as moment`),
  );
  await db.execute(
    sql.raw(`insert into ledger_entries (organization_id, kind, amount_micros, request_id, created_at)
     select organization_id, entry.kind, entry.amount, id, entry.at
     from feature_requests,
       lateral (values ('reservation', -price_micros, created_at),
         (case when status = 'done' then 'settlement' else 'refund' end,
          case when status = 'done' then 0 else price_micros end, completed_at)) as entry(kind, amount, at)
     where organization_id = '${organizationId}'`),
  );
  await db.execute(
    sql.raw(`update organizations set balance_micros = balance_micros - (select coalesce(sum(price_micros), 0)
       from feature_requests where organization_id = '${organizationId}' and status = 'done')
     where id = '${organizationId}'`),
  );
  await db.execute(
    sql.raw(`insert into usage_daily (project_id, endpoint, call_type, day, units, cost_micros, calls)
     select project_id, endpoint, call_type, (created_at at time zone 'UTC')::date, sum(units), sum(price_micros), count(*)
     from feature_requests where organization_id = '${organizationId}' and status = 'done' group by 1, 2, 3, 4`),
  );
  await db.execute(
    sql.raw(`insert into usage_daily_keys (project_id, api_key_id, day, units, cost_micros, calls)
     select project_id, api_key_id, (created_at at time zone 'UTC')::date, sum(units), sum(price_micros), count(*)
     from feature_requests where organization_id = '${organizationId}' and status = 'done'
       and api_key_id is not null group by 1, 2, 3`),
  );
}

/** Table and index bytes of what a call writes: the request log, the ledger and the rollups. */
async function storageOf(database: DatabaseHandle) {
  const rows = rowsOf<{ name: string; table_bytes: string; index_bytes: string }>(
    await database.db.execute(
      sql.raw(`select relname as name, pg_table_size(oid) as table_bytes, pg_indexes_size(oid) as index_bytes
       from pg_class where relname in ('feature_requests', 'ledger_entries', 'usage_daily', 'usage_daily_keys')`),
    ),
  );
  const indexes = rowsOf<{ name: string; bytes: string; scans: string }>(
    await database.db.execute(
      sql.raw(`select indexrelname as name, pg_relation_size(indexrelid) as bytes, idx_scan as scans
       from pg_stat_user_indexes where relname in ('feature_requests', 'ledger_entries') order by 2 desc`),
    ),
  );
  return {
    tables: new Map(rows.map((row) => [row.name, Number(row.table_bytes) + Number(row.index_bytes)])),
    indexes,
  };
}

interface Scenario {
  label: string;
  calls: number;
  otherOrganizations: number;
  timings: Map<string, Timing>;
  notes: string[];
  plans: string[];
  bytesPerCall?: Map<string, number>;
  indexes?: { name: string; bytes: string; scans: string }[];
}

async function run(label: string, calls: number, otherOrganizations: number): Promise<Scenario> {
  const fresh = await createFreshDatabase(SERVER_URL, "prism_bench_scale");
  const dataDir = mkdtempSync(join(tmpdir(), "prism-bench-scale-"));
  const database = openDatabase({ databaseUrl: fresh.url });
  const scenario: Scenario = { label, calls, otherOrganizations, timings: new Map(), notes: [], plans: [] };
  try {
    await database.migrate();
    const config = loadConfig({
      APP_ENV: "test",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      BUILTIN_ENGINE: "off",
      PORT: "0",
      API_KEY_REQUESTS_PER_MINUTE: "100000000",
      ORGANIZATION_QUEUED_CALLS: "1000",
    });
    const deps = { ...createDependencies(config, database), registry: new ProviderRegistry([echoProvider]) };
    const app = await buildApp(deps, { logger: false, runJobs: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    try {
      const account = await createBenchAccount(base, deps, {
        label: `scale-${label}`,
        fundsMicros: 10n ** 15n,
      });
      const { organizationId, projectId, cookie } = account;
      const keyContents = [
        await account.createKey("first"),
        await account.createKey("second"),
        await account.createKey("third"),
      ];
      const keyRows = rowsOf<{ id: string; user_id: string }>(
        await database.db.execute(
          sql`select id, created_by_user_id as user_id from api_keys where organization_id = ${organizationId}
            order by created_at, id`,
        ),
      );
      const keyIds = keyRows.map((row) => row.id);
      const userId = keyRows[0]?.user_id ?? "";
      const before = await storageOf(database);

      const seedStarted = performance.now();
      await seedCalls(database, { organizationId, projectId, userId, keyIds, calls });
      for (let other = 0; other < otherOrganizations; other += 1) {
        const neighbour = await createBenchAccount(base, deps, {
          label: `scale-other-${other}`,
          fundsMicros: 10n ** 12n,
        });
        await neighbour.createKey("only");
        const [neighbourKey] = rowsOf<{ id: string; user_id: string }>(
          await database.db.execute(
            sql`select id, created_by_user_id as user_id from api_keys where organization_id = ${neighbour.organizationId}`,
          ),
        );
        await seedCalls(database, {
          organizationId: neighbour.organizationId,
          projectId: neighbour.projectId,
          userId: neighbourKey?.user_id ?? "",
          keyIds: [neighbourKey?.id ?? ""],
          calls: OTHER_CALLS,
        });
      }
      await database.db.execute(sql`vacuum analyze`);
      const seeded = calls + otherOrganizations * OTHER_CALLS;
      scenario.notes.push(
        `seeded ${seeded.toLocaleString("en-US")} calls in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
      );
      const after = await storageOf(database);
      if (seeded > 0) {
        scenario.bytesPerCall = new Map(
          [...after.tables].map(([name, bytes]) => [name, (bytes - (before.tables.get(name) ?? 0)) / seeded]),
        );
      }

      const headers = { origin: base, "content-type": "application/json", cookie };
      const post = async (path: string, body: object) => {
        const response = await fetch(`${base}${path}`, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return response.json() as Promise<Record<string, unknown>>;
      };
      const measure = async (name: string, path: string, body: object) => {
        scenario.timings.set(name, await time(() => post(path, body)));
      };

      const limitsOf = (cap: number) => ({
        ...NO_API_KEY_LIMITS,
        monthlySpendCap: cap,
        lifetimeSpendCap: cap,
      });
      let saves = 0;
      const saveLimits = () => {
        saves += 1;
        return post("/v1/users/api-keys/update", {
          projectId,
          apiKeyId: keyIds[2],
          apiKeyName: "third",
          limits: limitsOf(999_999 + (saves % 2)),
        });
      };

      if (PARTS.has("reads")) {
        // The key with the most calls: the details drawer's lifetime sum reads the most for it.
        const [busiest] = rowsOf<{ id: string; calls: string }>(
          await database.db.execute(
            sql`select api_key_id as id, count(*) as calls from feature_requests
            where organization_id = ${organizationId} and api_key_id is not null group by 1 order by 2 desc limit 1`,
          ),
        );
        await measure("api-keys/list", "/v1/users/api-keys/list", { projectId });
        await measure(
          `api-keys/details (${Number(busiest?.calls ?? 0).toLocaleString("en-US")} calls)`,
          "/v1/users/api-keys/details",
          {
            projectId,
            apiKeyId: busiest?.id ?? keyIds[0],
          },
        );
        scenario.timings.set("api-keys/update with limits", await time(saveLimits));

        // The playground history: first page, the spec's deepest offset, and a deep page by cursor.
        const historyEndpoint = backgroundRemovalFeature.endpoint;
        const history = (body: object) =>
          post("/v1/users/playground/get-requests", { projectId, endpoint: historyEndpoint, ...body });
        scenario.timings.set("history, first page", await time(() => history({ offset: 0 })));
        scenario.timings.set(
          "history, offset 5,000 (the bound)",
          await time(() => history({ offset: 5_000 })),
        );
        const [historyCount] = rowsOf<{ calls: string }>(
          await database.db.execute(
            sql`select count(*) as calls from feature_requests where project_id = ${projectId} and endpoint = ${historyEndpoint}`,
          ),
        );
        const depth = Math.max(0, Math.min(DEEP_HISTORY, Number(historyCount?.calls ?? 0) - 21));
        const [deepRow] = rowsOf<{ at: string; id: string }>(
          await database.db.execute(
            sql`select created_at::text as at, id from feature_requests where project_id = ${projectId}
            and endpoint = ${historyEndpoint} and deleted_at is null order by created_at desc, id desc
            offset ${depth} limit 1`,
          ),
        );
        if (deepRow) {
          const cursor = encodeCursor(deepRow);
          scenario.timings.set("history, deep page by cursor", await time(() => history({ cursor })));
          scenario.notes.push(`deep history page: ${depth.toLocaleString("en-US")} calls deep`);
        }

        // The Requests view: the first page, "Failed" (5 %), "Canceled" (none at all).
        const requests = (body: object) =>
          post("/v1/users/requests/list", { organizationId, projectIds: [projectId], ...body });
        scenario.timings.set("requests view, first page", await time(() => requests({})));
        scenario.timings.set("requests view, failed (5 %)", await time(() => requests({ status: "error" })));
        scenario.timings.set(
          "requests view, canceled (none)",
          await time(() => requests({ status: "canceled" })),
        );
        for (const status of ["error", "canceled"] as const) {
          const filter = { organizationId, projectIds: [projectId], status };
          const page = listRequestLogPage(database.db, filter, undefined, REQUESTS_PAGE_SIZE + 1);
          const plan = rowsOf<{ "QUERY PLAN": string }>(await database.db.execute(sql`explain ${page}`));
          scenario.plans.push(`plan of the Requests view filtered on ${status}:`);
          scenario.plans.push(...plan.map((row) => `    ${row["QUERY PLAN"]}`));
        }
      }

      if (PARTS.has("feature")) {
        // A feature call's own time, alone and while another key's limits are saved in a loop.
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3366cc" } })
          .png()
          .toBuffer();
        const body = multipart([{ name: "image", value: png, filename: "p.png", contentType: "image/png" }]);
        const featureCall = async () => {
          const response = await fetch(`${base}${backgroundRemovalFeature.endpoint}`, {
            method: "POST",
            headers: { authorization: `Bearer ${keyContents[1]}`, "content-type": body.contentType },
            body: body.payload,
          });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`feature call: ${response.status}`);
        };
        scenario.timings.set("feature call", await time(featureCall, FEATURE_CALLS));
        // Saved back to back (the saves compete with the calls for the same cores), then paced one every
        // 100 ms (what is left is waiting on a lock, which the organization's row was on main).
        for (const [name, pauseMs] of [
          ["feature call, limits saved in a loop", 0],
          ["feature call, limits saved every 100 ms", 100],
        ] as const) {
          let saving = true;
          const savedBefore = saves;
          const saver = (async () => {
            while (saving) {
              await saveLimits();
              if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
            }
          })();
          try {
            scenario.timings.set(name, await time(featureCall, FEATURE_CALLS));
          } finally {
            saving = false;
            await saver;
          }
          scenario.notes.push(`limits saved ${saves - savedBefore} times during "${name}"`);
        }
      }

      // The calls CSV of the busiest month (the month of the newest call), brotli and plain.
      const [month] = rowsOf<{ month: string; calls: string }>(
        await database.db.execute(
          sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM') as month, count(*) as calls
            from feature_requests where project_id = ${projectId} group by 1 order by 2 desc limit 1`,
        ),
      );
      if (month && PARTS.has("export")) {
        // The servers exported through: this checkout's, and with SCALE_BASELINE another checkout's on
        // the same database (its apps/server directory), for a before/after in one run and one load.
        const servers = [{ label: "", base }];
        const baselines: Awaited<ReturnType<typeof startBaseline>>[] = [];
        try {
          for (const directory of BASELINES) {
            const baseline = await startBaseline(directory, config, fresh.url);
            baselines.push(baseline);
            servers.push({ label: ` (${directory})`, base: baseline.base });
          }
          // node:http rather than fetch, which would decompress the body: the bytes counted are the wire's;
          // their SHA-256 compares two versions of the export byte for byte.
          const exportOnce = (server: string, encoding: string) =>
            new Promise<ExportRun>((resolve, reject) => {
              const begin = performance.now();
              const cpuBefore = process.cpuUsage();
              const url = `${server}${USAGE_EXPORT_PATH}?month=${month.month}&projectIds=${projectId}`;
              get(url, { headers: { cookie, "accept-encoding": encoding } }, (response) => {
                let bytes = 0;
                const hash = createHash("sha256");
                response.on("data", (chunk: Buffer) => {
                  bytes += chunk.length;
                  hash.update(chunk);
                });
                response.on("end", () => {
                  if (response.statusCode !== 200) reject(new Error(`export: ${response.statusCode}`));
                  else {
                    const cpu = process.cpuUsage(cpuBefore);
                    resolve({
                      ms: performance.now() - begin,
                      cpuMs: (cpu.user + cpu.system) / 1000,
                      bytes,
                      sha256: hash.digest("hex"),
                    });
                  }
                });
                response.on("error", reject);
              }).on("error", reject);
            });
          // Brotli and plain, server after server, in turns: each sees the machine's load alike.
          const runs = new Map(
            servers.map((server) => [server.label, [] as { br: ExportRun; plain: ExportRun }[]]),
          );
          for (let round = 0; round < EXPORT_RUNS; round += 1) {
            for (const server of servers) {
              const br = await exportOnce(server.base, "br");
              const plain = await exportOnce(server.base, "identity");
              runs.get(server.label)?.push({ br, plain });
            }
          }
          const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ");
          for (const [serverLabel, serverRuns] of runs) {
            scenario.timings.set(
              `calls CSV of a month, brotli${serverLabel}`,
              timingOf(serverRuns.map((run) => run.br.ms)),
            );
            scenario.timings.set(
              `calls CSV of a month, plain${serverLabel}`,
              timingOf(serverRuns.map((run) => run.plain.ms)),
            );
            const first = serverRuns[0];
            scenario.notes.push(
              `export${serverLabel} of ${month.month}: ${Number(month.calls).toLocaleString("en-US")} calls, ` +
                `${((first?.plain.bytes ?? 0) / 1e6).toFixed(1)} MB plain (sha256 ${first?.plain.sha256.slice(0, 16)}), ` +
                `${((first?.br.bytes ?? 0) / 1e6).toFixed(1)} MB brotli; wall ms brotli ` +
                `${list(serverRuns.map((run) => run.br.ms))}, plain ${list(serverRuns.map((run) => run.plain.ms))}; ` +
                `this process's CPU ms (server and client, not the database) brotli ` +
                `${list(serverRuns.map((run) => run.br.cpuMs))}, plain ${list(serverRuns.map((run) => run.plain.cpuMs))}`,
            );
          }
          const hashes = new Set([...runs.values()].flat().map((run) => run.plain.sha256));
          if (hashes.size > 1) throw new Error("export: the bytes differ between runs or servers");
        } finally {
          for (const baseline of baselines) await baseline.close();
        }
      }
      // The indexes' sizes and scans (since the database was made: the seeding's and the reads'), once
      // the server's connections have reported their statistics.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      scenario.indexes = (await storageOf(database)).indexes;
    } finally {
      await app.close();
    }
  } finally {
    // The app closes the database with itself; this is for a failure before it was built.
    await database.close().catch(() => undefined);
    await fresh.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return scenario;
}

const format = (timing: Timing | undefined) =>
  timing ? `${timing.p50.toFixed(1)} / ${timing.p95.toFixed(1)}` : "-";

console.log(
  `Scale benchmark on PostgreSQL: ${SCALE_CALLS.toLocaleString("en-US")} calls + ${OTHER_ORGS} × ` +
    `${OTHER_CALLS.toLocaleString("en-US")}, against a fresh database with ${FRESH_CALLS.toLocaleString("en-US")}; ` +
    `${ROUNDS} rounds (feature calls: ${FEATURE_CALLS}), p50 / p95 ms`,
);
const freshScenario = await run("fresh", FRESH_CALLS, 0);
const scaleScenario = await run("scale", SCALE_CALLS, OTHER_ORGS);
console.log(`\n| What | ${SCALE_CALLS.toLocaleString("en-US")} calls p50 / p95 ms | Fresh | p50 ratio |`);
console.log("|---|---|---|---|");
const freshByName = [...freshScenario.timings.entries()];
for (const [name, timing] of scaleScenario.timings) {
  // The details row names its key's calls, which differ between the two databases.
  const freshTiming =
    freshScenario.timings.get(name) ??
    freshByName.find(([freshName]) => freshName.split(" (")[0] === name.split(" (")[0])?.[1];
  const ratio = freshTiming ? (timing.p50 / freshTiming.p50).toFixed(2) : "-";
  console.log(`| ${name} | ${format(timing)} | ${format(freshTiming)} | ${ratio} |`);
}
const alone = scaleScenario.timings.get("feature call");
const loaded = scaleScenario.timings.get("feature call, limits saved in a loop");
if (alone && loaded) {
  console.log(
    `\nfeature call while limits are saved back to back: ${((loaded.p50 / alone.p50 - 1) * 100).toFixed(1)} % over alone (p50)`,
  );
}
const paced = scaleScenario.timings.get("feature call, limits saved every 100 ms");
if (alone && paced) {
  console.log(
    `feature call while limits are saved every 100 ms: ${((paced.p50 / alone.p50 - 1) * 100).toFixed(1)} % over alone (p50)`,
  );
}
for (const scenario of [freshScenario, scaleScenario]) {
  console.log(`\n${scenario.label}: ${scenario.notes.join("; ")}`);
}
if (scaleScenario.bytesPerCall) {
  const total = [...scaleScenario.bytesPerCall.values()].reduce((sum, bytes) => sum + bytes, 0);
  const parts = [...scaleScenario.bytesPerCall]
    .map(([name, bytes]) => `${name} ${bytes.toFixed(0)}`)
    .join(", ");
  console.log(`\nbytes per call (tables and their indexes): ${total.toFixed(0)} (${parts})`);
}
for (const index of scaleScenario.indexes ?? []) {
  console.log(`  ${index.name}: ${(Number(index.bytes) / 1e6).toFixed(1)} MB, ${index.scans} scans`);
}
console.log(`\n${scaleScenario.plans.join("\n")}`);

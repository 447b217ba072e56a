/**
 * `npm run bench:requests -w @prism/server`: Home's Requests view at 1,000,000 request-log rows, as
 * ratios against a bare route measured in the same run (absolute numbers depend on the box).
 *
 * One organization with two projects and an API key; its calls spread over 90 days, 13 features, three
 * callers (two thirds by the key), 5% failed and 0.1% still running. Measured through HTTP, p50 of 20
 * rounds after a warm-up: the first page, a page half a million calls deep (the cursor a client would
 * hold after 10,000 pages), each filter, and one day. On PostgreSQL the plans of the first and the deep
 * page are printed, to show the index they read. PGlite is seeded in batches, PostgreSQL in one
 * statement (`generate_series` both).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FEATURE_ENDPOINTS, REQUESTS_PAGE_SIZE } from "@prism/contract";
import { sql } from "drizzle-orm";
import { buildApp } from "../src/app";
import { createDependencies } from "../src/app-dependencies";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { encodeCursor } from "../src/modules/usage/request-log.service";
import { listRequestLogPage } from "../src/modules/usage/request-log.store";

const ROWS = Number(process.env.BENCH_REQUEST_ROWS ?? 1_000_000);
const BATCH = 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function timeQuery(run: () => Promise<unknown>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const begin = performance.now();
    await run();
    samples.push(performance.now() - begin);
  }
  samples.sort((a, b) => a - b);
  return percentile(samples, 50);
}

async function benchOn(label: string, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), "prism-bench-requests-"));
  const config = loadConfig({
    APP_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    BUILTIN_ENGINE: "off",
    PORT: "0",
  });
  const database = openDatabase({ databaseUrl });
  await database.migrate();
  const deps = createDependencies(config, database);
  const app = await buildApp(deps, { logger: false, runJobs: false });
  app.get("/bench/bare", async () => ({ ok: true }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const origin = { origin: base, "content-type": "application/json" };

  // A signed-up owner, a second project and a key, made through the public calls.
  const email = `bench-requests-${Date.now()}@example.com`;
  const created = await fetch(`${base}/v1/users/create`, {
    method: "POST",
    headers: origin,
    body: JSON.stringify({ firstName: "Bench", lastName: "Mark", email, password: "Bench-mark1!" }),
  });
  const signUpCookie = created.headers.get("set-cookie")?.split(";")[0] ?? "";
  const code = (await deps.outbox.list())[0]?.text.match(/\b(\d{6})\b/)?.[1];
  const confirmed = await fetch(`${base}/v1/users/confirm`, {
    method: "POST",
    headers: { ...origin, cookie: signUpCookie },
    body: JSON.stringify({ email, verificationCode: code }),
  });
  const cookie =
    confirmed.headers
      .getSetCookie()
      .find((value) => value.startsWith("prism_session="))
      ?.split(";")[0] ?? "";
  const me = (await confirmed.json()) as { organizations: { id: string; projects: { id: string }[] }[] };
  const organizationId = me.organizations[0]?.id ?? "";
  const projectId = me.organizations[0]?.projects[0]?.id ?? "";
  const call = (path: string, body: object) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { ...origin, cookie },
      body: JSON.stringify(body),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    });
  const second = (await call("/v1/users/projects/create", { organizationId, name: "Second" })) as {
    id: string;
  };
  const key = (await call("/v1/users/api-keys/insert", { projectId, apiKeyName: "bench" })) as {
    apiKey: { id: string };
  };
  const apiKeyId = key.apiKey.id;

  const endpoints = `array[${FEATURE_ENDPOINTS.map((endpoint) => `'${endpoint}'`).join(",")}]`;
  const seed = (from: number, to: number) =>
    database.db.execute(
      sql.raw(`insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type,
         status, provider, request_files, request_body, units, price_micros, response_file, created_at, completed_at)
       select '${organizationId}', case when i % 10 = 0 then '${second.id}'::uuid else '${projectId}'::uuid end,
         case when i % 3 = 0 then null else '${apiKeyId}'::uuid end,
         (${endpoints})[1 + (i % ${FEATURE_ENDPOINTS.length})], 'bench',
         case when i % 1000 = 0 then 'generating' when i % 20 = 0 then 'error' else 'done' end,
         'http', '{}'::jsonb, '{}'::jsonb, 1, 10000, 'bench/result.png',
         now() - interval '90 days' + (i * (interval '90 days' / ${ROWS})),
         now() - interval '90 days' + (i * (interval '90 days' / ${ROWS})) + interval '2 seconds'
       from generate_series(${from}, ${to}) as i`),
    );
  const seedStarted = performance.now();
  if (databaseUrl) await seed(1, ROWS);
  else for (let from = 1; from <= ROWS; from += BATCH) await seed(from, Math.min(ROWS, from + BATCH - 1));
  await database.db.execute(sql`analyze feature_requests`);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  console.log(`${label}: seeded ${ROWS.toLocaleString("en-US")} rows in ${seedSeconds.toFixed(0)} s`);

  const projectIds = [projectId, second.id];
  const list = (filters: object = {}) =>
    call("/v1/users/requests/list", { organizationId, projectIds, ...filters }) as Promise<{
      requests: unknown[];
    }>;
  // The cursor a client holds after 10,000 pages: the keyset of the row half a million calls deep.
  const depth = Math.min(ROWS - REQUESTS_PAGE_SIZE, 10_000 * REQUESTS_PAGE_SIZE);
  const deepRows = await database.db.execute(
    sql.raw(`select created_at::text as at, id from feature_requests where organization_id = '${organizationId}'
     order by created_at desc, id desc offset ${depth - 1} limit 1`),
  );
  const deepRow = (deepRows as unknown as { rows: { at: string; id: string }[] }).rows[0];
  if (!deepRow) throw new Error("no row at the deep page's depth");
  const deepCursor = encodeCursor(deepRow);
  const middleDay = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);

  // The client's pooled connection went idle during the seeding and the server has closed it: the first
  // request on it may fail, and the client then drops it.
  await fetch(`${base}/bench/bare`).catch(() => undefined);
  const bare = await timeQuery(() => fetch(`${base}/bench/bare`).then((response) => response.json()));
  const measures: [string, number][] = [];
  const measure = async (name: string, filters: object = {}) => {
    const answer = await list(filters);
    // A filter matching fewer calls than a page reads to the end of the log: say so beside its time.
    const short =
      answer.requests.length < REQUESTS_PAGE_SIZE ? `, ${answer.requests.length} calls in all` : "";
    measures.push([`${name}${short}`, await timeQuery(() => list(filters))]);
  };
  await measure("first page");
  await measure(`page ${depth.toLocaleString("en-US")} calls deep`, { cursor: deepCursor });
  await measure("feature filter (1 in 13)", { endpoint: "/v1/images/upscaling" });
  await measure("API key filter (2 in 3)", { apiKeyId });
  await measure("console only (1 in 3)", { apiKeyId: "playground" });
  await measure("failed only (1 in 20)", { status: "error" });
  await measure("running only (1 in 1,000)", { status: "generating" });
  await measure("one day, 45 days back", { from: middleDay, to: middleDay });
  await measure("one project of two (1 in 10)", { projectIds: [second.id] });

  let plans = "";
  if (databaseUrl) {
    const explain = async (after: { at: string; id: string } | undefined) => {
      const result = await database.db.execute(
        sql`explain ${listRequestLogPage(database.db, { organizationId, projectIds }, after, REQUESTS_PAGE_SIZE + 1)}`,
      );
      return (result as unknown as { rows: { "QUERY PLAN": string }[] }).rows
        .map((row) => `    ${row["QUERY PLAN"]}`)
        .join("\n");
    };
    plans = `\nplan of the first page:\n${await explain(undefined)}\nplan of the deep page:\n${await explain(deepRow)}`;
  }

  await app.close();
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`\n## ${label}`);
  console.log(`seeded ${ROWS.toLocaleString("en-US")} request rows in ${seedSeconds.toFixed(0)} s`);
  console.log(`bare route:                              p50 ${bare.toFixed(2)} ms`);
  for (const [name, p50] of measures) {
    console.log(
      `${`${name}:`.padEnd(40)} p50 ${p50.toFixed(1)} ms (${(p50 / bare).toFixed(1)}x a bare call)`,
    );
  }
  const first = measures[0]?.[1] ?? 1;
  const deep = measures[1]?.[1] ?? 1;
  console.log(`deep page / first page:                  ${(deep / first).toFixed(2)}`);
  if (plans) console.log(plans);
}

console.log(`Requests view benchmark: ${ROWS.toLocaleString("en-US")} request rows, ${ROUNDS} rounds each`);
await benchOn("PGlite (embedded)", undefined);
if (process.env.DATABASE_URL) await benchOn("PostgreSQL", process.env.DATABASE_URL);

/**
 * `npm run bench -w @prism/server`: the cost of the metered pipeline and of the history and statistics
 * queries, as ratios against baselines measured in the same run (absolute numbers depend on the box).
 *
 * 1. Requests per second and p50/p99 latency of a feature call through the full pipeline (API-key
 *    auth, multipart parsing and checks, reservation, request row, file storage, settle, rollup) with a
 *    provider that does nothing, against a bare Fastify route on the same server.
 * 2. The cost of a key's limits (issue 17): the same call, one at a time, alternating between a key
 *    with every limit set (features, both spend caps, expiry, IP allowlist, its own rate) and a key
 *    with none, so both see the same machine at the same moment.
 * 3. The history page and the month's statistics at 100,000 request rows, on PGlite and, when
 *    DATABASE_URL is set, on PostgreSQL.
 *
 * Besides, the feature call one at a time (its own cost: the provider answers at once, so the latency
 * is everything but the model) and the SQL statements it sends, counted in the database driver
 * (`begin` and `commit` included), not guessed. BENCH_ROWS=0 and BENCH_LIMIT_CALLS=0 skip parts 3 and 2;
 * BENCH_SKIP_PGLITE=1 runs PostgreSQL only; BENCH_PROFILE=<path> writes a CPU profile of the calls made one
 * at a time (see startProfile).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import inspector from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { buildApp } from "../src/app";
import { createDependencies } from "../src/app-dependencies";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { createHttpProvider } from "../src/providers/inference/http-provider";
import { ProviderRegistry } from "../src/providers/inference/registry";
import { multipart } from "../test/images";
import { createBenchAccount } from "./bench-account";
import { echoProvider } from "./echo-provider";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const HISTORY_ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const LIMIT_CALLS = Number(process.env.BENCH_LIMIT_CALLS ?? 300);
const SERIAL_CALLS = Number(process.env.BENCH_SERIAL_CALLS ?? 200);

/**
 * Every statement either driver sends, counted where the driver takes it: `pg.Client#query` (the pool
 * and transactions go through it) and PGlite's `query`, `exec` and `transaction` (its BEGIN and COMMIT
 * are sent inside `transaction`, so they are counted there).
 */
const statements = { count: 0 };
{
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements.count += 1;
    return (clientQuery as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof clientQuery;
  const proto = PGlite.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["query", "exec"] as const) {
    const original = proto[name];
    if (!original) continue;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      statements.count += 1;
      return original.apply(this, args);
    };
  }
  const transaction = proto.transaction;
  if (transaction) {
    proto.transaction = function (this: unknown, ...args: unknown[]) {
      const [callback] = args as [(tx: Record<string, (...rest: unknown[]) => unknown>) => Promise<unknown>];
      statements.count += 2;
      return transaction.call(this, (tx: Record<string, (...rest: unknown[]) => unknown>) => {
        const counted = Object.create(tx) as typeof tx;
        for (const name of ["query", "exec", "sql"]) {
          const method = tx[name];
          if (method)
            counted[name] = (...rest: unknown[]) => {
              statements.count += 1;
              return method.apply(tx, rest);
            };
        }
        return callback(counted);
      });
    };
  }
}

/**
 * A CPU profile of this process (server, embedded database, client) over the calls made one at a time
 * only, without start-up and warm-up: `BENCH_PROFILE=/tmp/gateway` writes `/tmp/gateway-<database>.cpuprofile`,
 * to open in Chrome's DevTools or any `.cpuprofile` viewer.
 */
async function startProfile() {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  return {
    async stopInto(path: string) {
      const { profile } = (await post("Profiler.stop")) as { profile: unknown };
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
      console.log(`CPU profile of the calls one at a time: ${path}`);
    },
  };
}

/**
 * A model server on a loopback port that answers image generation at once with the same 256x256 photo
 * (the astronaut fixture), so a generation call's time is the gateway's own plus this server's.
 */
async function startGenerationModelServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const photo = await sharp(fileURLToPath(new URL("../../../fixtures/images/astronaut.png", import.meta.url)))
    .resize(256, 256)
    .png()
    .toBuffer();
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url === "/health") {
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      response.writeHead(200, { "content-type": "image/png" }).end(photo);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** One request the load generator repeats. */
interface BenchRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/**
 * Sends `calls` copies of `request`, `concurrency` at a time, from a worker thread (bench/http-load.worker.mjs),
 * so the client's work does not share the server's event loop, and answers throughput and latencies.
 */
async function load(
  request: BenchRequest,
  { calls = CALLS, concurrency = CONCURRENCY } = {},
): Promise<{ rps: number; p50: number; p99: number }> {
  const worker = new Worker(new URL("./http-load.worker.mjs", import.meta.url), {
    workerData: {
      url: request.url,
      method: request.method ?? "GET",
      headers: request.headers ?? {},
      body: request.body ? new Uint8Array(request.body) : undefined,
      calls,
      concurrency,
    },
  });
  const result = await new Promise<{ latencies: number[]; seconds: number; failure?: string }>(
    (resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    },
  );
  await worker.terminate();
  if (result.failure) throw new Error(`bench call failed: ${result.failure}`);
  const latencies = result.latencies.sort((a, b) => a - b);
  return { rps: calls / result.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** p50/p99 of two kinds of call made one at a time, alternating, after a warm-up of each. */
async function compareKeys(
  unlimited: () => Promise<Response>,
  limited: () => Promise<Response>,
): Promise<Record<"unlimited" | "limited", { p50: number; p99: number }>> {
  const samples = { unlimited: [] as number[], limited: [] as number[] };
  const timeOne = async (send: () => Promise<Response>, into?: number[]) => {
    const begin = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`bench call failed: ${response.status}`);
    into?.push(performance.now() - begin);
  };
  for (let round = 0; round < 20; round += 1) {
    await timeOne(unlimited);
    await timeOne(limited);
  }
  for (let round = 0; round < LIMIT_CALLS; round += 1) {
    // Which goes first alternates too, so neither always follows the other.
    if (round % 2 === 0) {
      await timeOne(unlimited, samples.unlimited);
      await timeOne(limited, samples.limited);
    } else {
      await timeOne(limited, samples.limited);
      await timeOne(unlimited, samples.unlimited);
    }
  }
  const summary = (values: number[]) => {
    values.sort((a, b) => a - b);
    return { p50: percentile(values, 50), p99: percentile(values, 99) };
  };
  return { unlimited: summary(samples.unlimited), limited: summary(samples.limited) };
}

async function timeQuery(run: () => Promise<unknown>, rounds = 20): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const begin = performance.now();
    await run();
    samples.push(performance.now() - begin);
  }
  samples.sort((a, b) => a - b);
  return percentile(samples, 50);
}

async function benchOn(label: string, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), "prism-bench-"));
  const config = loadConfig({
    APP_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    BUILTIN_ENGINE: "off",
    PORT: "0",
    // The limits are checked on every call, as in production, but set high enough never to refuse one.
    API_KEY_REQUESTS_PER_MINUTE: "100000000",
    ORGANIZATION_QUEUED_CALLS: "1000",
  });
  const database = openDatabase({ databaseUrl });
  await database.migrate();
  const modelServer = await startGenerationModelServer();
  const deps = {
    ...createDependencies(config, database),
    registry: new ProviderRegistry([
      echoProvider,
      createHttpProvider({ baseUrl: modelServer.url, features: ["image-generation"], timeoutMs: 30_000 }),
    ]),
  };
  const app = await buildApp(deps, {
    logger: process.env.BENCH_LOG ? { level: "error" } : false,
    runJobs: false,
  });
  app.get("/bench/bare", async () => ({ ok: true }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const origin = { origin: base, "content-type": "application/json" };

  // A signed-up owner with a funded organization and a key, made through the public calls.
  const account = await createBenchAccount(base, deps, { label: "gateway", fundsMicros: 10_000_000_000n });
  const { organizationId, projectId, cookie } = account;
  const apiKey = await account.createKey("bench");
  const limitedKey = await account.createKey("bench limited", {
    endpoints: ["/v1/images/background-removal", "/v1/images/upscaling"],
    monthlySpendCap: 100_000,
    lifetimeSpendCap: 1_000_000,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    allowedIps: ["10.0.0.0/8", "127.0.0.0/8", "::1"],
    requestsPerMinute: 100_000,
  });

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  const body = multipart([{ name: "image", value: png, filename: "p.png", contentType: "image/png" }]);

  const bareRequest: BenchRequest = { url: `${base}/bench/bare` };
  const removalRequest: BenchRequest = {
    url: `${base}/v1/images/background-removal`,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
    body: body.payload,
  };
  const generationBody = multipart([
    { name: "prompt", value: "an astronaut on the moon" },
    { name: "width", value: "256" },
    { name: "height", value: "256" },
  ]);
  const generationRequest: BenchRequest = {
    url: `${base}/v1/images/generation`,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": generationBody.contentType },
    body: generationBody.payload,
  };
  // The model server's own time for the same call (the bench's local one answers at once).
  const modelServerRequest: BenchRequest = {
    url: `${modelServer.url}/image-generation`,
    method: "POST",
    headers: { "content-type": generationBody.contentType },
    body: generationBody.payload,
  };

  const bare = await load(bareRequest);
  const pipeline = await load(removalRequest);
  const generation = await load(generationRequest);

  // One at a time: the call's own cost, the statements it sends, and the CPU time this process (the
  // server, PGlite when embedded, the local model server and the load generator's thread) spends on
  // it, which a loaded machine inflates far less than the wall time.
  const serialOf = async (request: BenchRequest) => {
    const statementsBefore = statements.count;
    const cpuBefore = process.cpuUsage();
    const timing = await load(request, { calls: SERIAL_CALLS, concurrency: 1 });
    return {
      ...timing,
      statements: (statements.count - statementsBefore) / SERIAL_CALLS,
      cpu: cpuOf(process.cpuUsage(cpuBefore)),
    };
  };
  const cpuOf = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000 / SERIAL_CALLS;
  const profile = process.env.BENCH_PROFILE ? await startProfile() : undefined;
  const serial = await serialOf(removalRequest);
  if (profile) await profile.stopInto(`${process.env.BENCH_PROFILE}-${label.split(" ")[0]}.cpuprofile`);
  const generationSerial = await serialOf(generationRequest);
  const modelServerSerial = await serialOf(modelServerRequest);
  const bareSerial = await serialOf(bareRequest);

  const callWith = (key: string) =>
    fetch(`${base}/v1/images/background-removal`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": body.contentType },
      body: body.payload,
    });
  const limits =
    LIMIT_CALLS > 0
      ? await compareKeys(
          () => callWith(apiKey),
          () => callWith(limitedKey),
        )
      : undefined;
  const queries = HISTORY_ROWS > 0 ? await historyAndStatistics() : undefined;

  async function historyAndStatistics() {
    // 100,000 request rows spread over this month and 13 endpoints, the project's history included.
    await database.db.execute(
      sql.raw(`insert into feature_requests (organization_id, project_id, endpoint, call_type, status, provider, request_files, request_body, units, price_micros, created_at)
       select '${organizationId}', '${projectId}',
         (array['/v1/images/background-removal','/v1/images/upscaling','/v1/images/generation','/v1/speech/transcription'])[1 + (i % 4)],
         'bench', 'done', 'http', '{}'::jsonb, '{}'::jsonb, 1, 10000,
         date_trunc('month', now()) + (i % 27) * interval '1 day' + (i % 1000) * interval '1 second'
       from generate_series(1, ${HISTORY_ROWS}) as i`),
    );
    const history = await timeQuery(() =>
      fetch(`${base}/v1/users/playground/get-requests`, {
        method: "POST",
        headers: { ...origin, cookie },
        body: JSON.stringify({ endpoint: "/v1/images/background-removal", projectId, offset: 0 }),
      }).then((response) => response.json()),
    );
    const historyDeep = await timeQuery(() =>
      fetch(`${base}/v1/users/playground/get-requests`, {
        method: "POST",
        headers: { ...origin, cookie },
        body: JSON.stringify({ endpoint: "/v1/images/background-removal", projectId, offset: 10_000 }),
      }).then((response) => response.json()),
    );
    const queryDate = `${new Date().toISOString().slice(0, 7)}-01T00:00:00.000Z`;
    const statistics = await timeQuery(() =>
      fetch(`${base}/v1/users/statistics/get`, {
        method: "POST",
        headers: { ...origin, cookie },
        body: JSON.stringify({ projectIds: [projectId], queryDate }),
      }).then((response) => response.json()),
    );
    const bareLatency = await timeQuery(() =>
      fetch(`${base}/bench/bare`).then((response) => response.json()),
    );
    return { history, historyDeep, statistics, bareLatency };
  }

  await app.close();
  await modelServer.close();
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`\n## ${label}`);
  const row = (name: string, timing: { p50: number; p99: number; statements: number; cpu: number }) =>
    console.log(
      `${name.padEnd(52)} p50 ${timing.p50.toFixed(2)} ms, p99 ${timing.p99.toFixed(2)} ms, ${timing.statements.toFixed(2)} SQL statements, CPU ${timing.cpu.toFixed(2)} ms per call`,
    );
  console.log(
    `One at a time (${SERIAL_CALLS} calls each; SQL statements counted in the driver, begin and commit included):`,
  );
  row("background removal 64x64, provider answers its input", serial);
  row("image generation 256x256, local model server", generationSerial);
  row("the local model server alone", modelServerSerial);
  row("bare route", bareSerial);
  console.log(
    `image generation's own cost (the call minus the model server): p50 ${(generationSerial.p50 - modelServerSerial.p50).toFixed(2)} ms`,
  );
  console.log(`Concurrency ${CONCURRENCY} (${CALLS} calls each):`);
  for (const [name, timing] of [
    ["background removal 64x64", pipeline],
    ["image generation 256x256", generation],
    ["bare route", bare],
  ] as const) {
    console.log(
      `${name.padEnd(52)} ${timing.rps.toFixed(0)} req/s, p50 ${timing.p50.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms`,
    );
  }
  console.log(
    `pipeline / bare throughput: background removal ${(pipeline.rps / bare.rps).toFixed(3)}, image generation ${(generation.rps / bare.rps).toFixed(3)}`,
  );
  if (limits) {
    console.log(
      `key without limits (1 at a time, ${LIMIT_CALLS} calls): p50 ${limits.unlimited.p50.toFixed(2)} ms, p99 ${limits.unlimited.p99.toFixed(2)} ms`,
    );
    console.log(
      `key with every limit (alternating):      p50 ${limits.limited.p50.toFixed(2)} ms, p99 ${limits.limited.p99.toFixed(2)} ms`,
    );
    console.log(
      `limits' cost at p50:                     ${(limits.limited.p50 - limits.unlimited.p50).toFixed(2)} ms (${(limits.limited.p50 / limits.unlimited.p50).toFixed(3)}x)`,
    );
  }
  if (queries) {
    const { history, historyDeep, statistics, bareLatency } = queries;
    console.log(
      `history page at ${HISTORY_ROWS} rows: p50 ${history.toFixed(1)} ms (${(history / bareLatency).toFixed(1)}x a bare call)`,
    );
    console.log(
      `history page at offset 10000: p50 ${historyDeep.toFixed(1)} ms (${(historyDeep / bareLatency).toFixed(1)}x a bare call)`,
    );
    console.log(
      `month statistics:             p50 ${statistics.toFixed(1)} ms (${(statistics / bareLatency).toFixed(1)}x a bare call)`,
    );
  }
}

console.log(`Gateway benchmark: ${CALLS} calls, concurrency ${CONCURRENCY}, ${HISTORY_ROWS} history rows`);
if (process.env.BENCH_SKIP_PGLITE !== "1") await benchOn("PGlite (embedded)", undefined);
if (process.env.DATABASE_URL) await benchOn("PostgreSQL", process.env.DATABASE_URL);

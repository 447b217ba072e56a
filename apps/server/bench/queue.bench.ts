/**
 * `npm run bench:queue -w @prism/server` (part of `npm run bench`): the call queue under a burst
 * (issue 29), on PGlite and, when DATABASE_URL is set, on PostgreSQL.
 *
 * A local model server with capacity 4 (MODEL_SERVER_CONCURRENCY) answers every call after 200 ms, so
 * the most it can serve is 20 calls a second: the baseline the run's throughput is a ratio of. Ten
 * organizations then submit 100 asynchronous calls each, all at once. Printed: throughput against that
 * limit; each organization's wait for its first call to reach the model (fair sharing: none should wait
 * behind another's backlog); the spread of the organizations' last finishing times; calls lost (not
 * ended) and calls charged other than once (must both be 0); and the dispatch latency of a call
 * submitted while a slot is free (submit → the model receives it), one at a time.
 * BENCH_QUEUE_ORGANIZATIONS and BENCH_QUEUE_CALLS change the burst; BENCH_SKIP_PGLITE=1 runs PostgreSQL only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import sharp from "sharp";
import { buildApp } from "../src/app";
import { createDependencies } from "../src/app-dependencies";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { featureRequests, ledgerEntries } from "../src/db/schema";
import { multipart } from "../test/images";
import { createBenchAccount } from "./bench-account";

const ORGANIZATIONS = Number(process.env.BENCH_QUEUE_ORGANIZATIONS ?? 10);
const CALLS_EACH = Number(process.env.BENCH_QUEUE_CALLS ?? 100);
const CAPACITY = 4;
const MODEL_MS = 200;
const DISPATCH_SAMPLES = 30;
const SUBMITTERS = 32;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The model server: answers after MODEL_MS, noting when each call (by its prompt) arrived and ended. */
async function startModelServer() {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#225588" } })
    .png()
    .toBuffer();
  const received = new Map<string, number>();
  const finished = new Map<string, number>();
  let working = 0;
  let mostAtOnce = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/health") {
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      const tag = /name="prompt"\r\n\r\n([^\r]*)/.exec(Buffer.concat(chunks).toString("latin1"))?.[1] ?? "";
      received.set(tag, performance.now());
      working += 1;
      mostAtOnce = Math.max(mostAtOnce, working);
      setTimeout(() => {
        working -= 1;
        finished.set(tag, performance.now());
        response.writeHead(200, { "content-type": "image/png" }).end(png);
      }, MODEL_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    received,
    finished,
    get mostAtOnce() {
      return mostAtOnce;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function benchOn(label: string, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), "prism-queue-bench-"));
  const model = await startModelServer();
  const config = loadConfig({
    APP_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    BUILTIN_ENGINE: "off",
    API_KEY_REQUESTS_PER_MINUTE: "0",
    AUTH_LIMITS_PER_IP_SCALE: "1000",
    MODEL_SERVER_URL: model.url,
    MODEL_SERVER_FEATURES: "image-generation",
    MODEL_SERVER_CONCURRENCY: String(CAPACITY),
  });
  const database = openDatabase({ databaseUrl });
  await database.migrate();
  const deps = createDependencies(config, database);
  const app = await buildApp(deps, { logger: false, runJobs: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const submit = (apiKey: string, tag: string) => {
    const body = multipart([
      { name: "prompt", value: tag },
      { name: "width", value: "256" },
      { name: "height", value: "256" },
    ]);
    return fetch(`${base}/v1/images/generation`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": body.contentType,
        prefer: "respond-async",
      },
      body: body.payload,
    });
  };

  const accounts = [];
  for (let index = 0; index < ORGANIZATIONS; index += 1) {
    const account = await createBenchAccount(base, deps, {
      label: `queue-${index}`,
      fundsMicros: 1_000_000_000n,
    });
    accounts.push({ ...account, apiKey: await account.createKey("queue") });
  }

  // Dispatch latency with a free slot: one call at a time, submit → the model has it.
  const dispatch: number[] = [];
  for (let index = 0; index < DISPATCH_SAMPLES; index += 1) {
    const tag = `dispatch-${index}`;
    const started = performance.now();
    const answer = await submit(accounts[0]?.apiKey ?? "", tag);
    if (answer.status !== 202)
      throw new Error(`dispatch call answered ${answer.status}: ${await answer.text()}`);
    while (!model.received.has(tag)) await new Promise((resolve) => setTimeout(resolve, 1));
    dispatch.push((model.received.get(tag) ?? started) - started);
    while (!model.finished.has(tag)) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  dispatch.sort((a, b) => a - b);

  // The burst: every organization submits all of its calls at once.
  const burstStarted = performance.now();
  // Organization by organization (the first one's whole backlog ahead of the last one's first call, the
  // worst order for fairness), through SUBMITTERS connections: a thousand sockets opened in the same
  // instant overflow the listen backlog and are reset before the server sees them.
  const pending = accounts.flatMap((account, organization) =>
    Array.from({ length: CALLS_EACH }, (_, call) => ({
      apiKey: account.apiKey,
      tag: `org${organization}-call${call}`,
    })),
  );
  const answers: Response[] = [];
  const submittedAt = new Map<string, number>();
  await Promise.all(
    Array.from({ length: SUBMITTERS }, async () => {
      for (let next = pending.shift(); next; next = pending.shift()) {
        submittedAt.set(next.tag, performance.now());
        const answer = await submit(next.apiKey, next.tag);
        await answer.arrayBuffer();
        answers.push(answer);
      }
    }),
  );
  const submittedMs = performance.now() - burstStarted;
  const refused = answers.filter((answer) => answer.status !== 202).length;
  const total = ORGANIZATIONS * CALLS_EACH;
  const deadline = Date.now() + 10 * 60_000;
  const open = async () => {
    const [row] = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(featureRequests)
      .where(sql`${featureRequests.status} in ('queued', 'generating')`);
    return Number(row?.count ?? 0);
  };
  while ((await open()) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const burstMs = performance.now() - burstStarted;

  const firstWaits: number[] = [];
  const lastFinishes: number[] = [];
  for (let organization = 0; organization < ORGANIZATIONS; organization += 1) {
    const tags = Array.from({ length: CALLS_EACH }, (_, call) => `org${organization}-call${call}`);
    // From the organization's first submission, which in this order comes after every earlier
    // organization's whole backlog: fair sharing shows as a wait of about one slot's turn.
    firstWaits.push(
      Math.min(...tags.map((tag) => model.received.get(tag) ?? Number.POSITIVE_INFINITY)) -
        Math.min(...tags.map((tag) => submittedAt.get(tag) ?? Number.POSITIVE_INFINITY)),
    );
    lastFinishes.push(
      Math.max(...tags.map((tag) => model.finished.get(tag) ?? Number.POSITIVE_INFINITY)) - burstStarted,
    );
  }

  // Money: every burst call ended, each charged exactly once (a reservation and a settlement).
  let lost = 0;
  let wronglyCharged = 0;
  for (const account of accounts) {
    const rows = await database.db
      .select({ id: featureRequests.id, status: featureRequests.status })
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, account.organizationId));
    const entries = await database.db
      .select({ requestId: ledgerEntries.requestId, kind: ledgerEntries.kind })
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.organizationId, account.organizationId), isNotNull(ledgerEntries.requestId)),
      );
    const kinds = new Map<string, string[]>();
    for (const { requestId, kind } of entries)
      if (requestId) kinds.set(requestId, [...(kinds.get(requestId) ?? []), kind]);
    for (const row of rows) {
      if (row.status !== "done") lost += 1;
      const got = (kinds.get(row.id) ?? []).sort().join(",");
      if (got !== "reservation,settlement") wronglyCharged += 1;
    }
  }

  const limitPerSecond = (CAPACITY * 1000) / MODEL_MS;
  const throughput = ((total - refused) * 1000) / burstMs;
  firstWaits.sort((a, b) => a - b);
  const spread = Math.max(...lastFinishes) - Math.min(...lastFinishes);
  console.log(`\n## ${label}`);
  console.log(
    `burst: ${ORGANIZATIONS} organizations × ${CALLS_EACH} asynchronous calls over ${SUBMITTERS} connections, all submitted in ${submittedMs.toFixed(0)} ms (${refused} refused)`,
  );
  console.log(
    `throughput: ${throughput.toFixed(1)} calls/s against the capacity's ${limitPerSecond} calls/s (${((throughput / limitPerSecond) * 100).toFixed(0)} %), ${(burstMs / 1000).toFixed(1)} s for the burst; most at the model at once: ${model.mostAtOnce} (capacity ${CAPACITY})`,
  );
  console.log(
    `each organization's first call at the model after its first submission: min ${firstWaits[0]?.toFixed(0)} ms, max ${firstWaits.at(-1)?.toFixed(0)} ms (one slot's turn is ${MODEL_MS} ms)`,
  );
  console.log(
    `organizations' last calls finished within ${spread.toFixed(0)} ms of each other (${((spread / burstMs) * 100).toFixed(1)} % of the burst)`,
  );
  console.log(`calls lost: ${lost}; calls charged other than once: ${wronglyCharged}`);
  console.log(
    `dispatch with a free slot (submit → model): p50 ${percentile(dispatch, 50).toFixed(1)} ms, p95 ${percentile(dispatch, 95).toFixed(1)} ms`,
  );

  await app.close();
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`Call queue benchmark: capacity ${CAPACITY}, model ${MODEL_MS} ms a call`);
if (process.env.BENCH_SKIP_PGLITE !== "1") await benchOn("PGlite (embedded)", undefined);
if (process.env.DATABASE_URL) await benchOn("PostgreSQL", process.env.DATABASE_URL);

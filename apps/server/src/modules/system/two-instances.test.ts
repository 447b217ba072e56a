import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { featureByEndpoint } from "@prism/contract";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRONG_PASSWORD } from "../../../test/accounts";
import { makePng } from "../../../test/images";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import {
  callFeature,
  kindsByRequest,
  openStorage,
  type ProcessStorage,
  readMoney,
  type SeededAccount,
  seedAccount,
} from "../../../test/process-fixtures";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";
import type { DatabaseHandle } from "../../db/client";
import { featureRequests, jobs, organizations } from "../../db/schema";
import { TRAINING_POLL_JOB } from "../jobs/job-kinds";

const serverUrl = process.env.DATABASE_URL;
const BACKGROUND_REMOVAL = "/v1/images/background-removal";
const UPSCALING = "/v1/images/upscaling";
const TRAINING = "/v1/images/pegasus-training";
const PRICE = BigInt(featureByEndpoint(BACKGROUND_REMOVAL)?.billing.defaultPriceMicros ?? 0);
const TRAINING_PRICE = BigInt(featureByEndpoint(TRAINING)?.billing.defaultPriceMicros ?? 0);

/** The value of one sample line of the Prometheus text format, 0 when absent. */
function sample(text: string, name: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

async function waitFor(what: string, condition: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The scale-out claim, proven: two server processes on one PostgreSQL database and one S3-compatible
 * bucket, with traffic spread over both. Nothing either process keeps in memory may matter to the
 * other. PGlite is one process's embedded database, so this needs PostgreSQL; CI's PostgreSQL pass
 * runs it.
 */
describe.skipIf(!serverUrl)(
  "two server processes on one database and one bucket (needs DATABASE_URL)",
  () => {
    let s3: S3rver;
    let s3Dir: string;
    let modelServer: LocalServer;
    let storage: ProcessStorage;
    let database: DatabaseHandle;
    let a: ServerProcess;
    let b: ServerProcess;
    const both = () => [a, b];
    const submissions: string[] = [];
    const pollsByIdentity = new Map<string, number>();
    let crashed: SeededAccount;
    let abandonedReceived = 0;

    beforeAll(async () => {
      s3Dir = mkdtempSync(join(tmpdir(), "prism-two-s3-"));
      s3 = new S3rver({
        port: 0,
        address: "127.0.0.1",
        silent: true,
        directory: s3Dir,
        configureBuckets: [{ name: "prism" }],
      });
      const { port: s3Port } = await s3.run();
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#204080" } })
        .png()
        .toBuffer();
      modelServer = await startLocalServer((request, response) => {
        if (request.path === "/health") return sendJson(response, 200, { status: "ok" });
        if (request.path === "/image-background-removal") {
          // Long enough that calls on both processes overlap.
          setTimeout(() => {
            response.writeHead(200, { "content-type": "image/png" });
            response.end(png);
          }, 100);
          return;
        }
        if (request.method === "POST" && request.path === "/pegasus-training") {
          const identityId = `identity-${submissions.length + 1}`;
          submissions.push(identityId);
          return sendJson(response, 200, { identityId, status: "pending" });
        }
        const poll = /^\/pegasus-training\/(identity-\d+)$/.exec(request.path);
        if (request.method === "GET" && poll?.[1]) {
          pollsByIdentity.set(poll[1], (pollsByIdentity.get(poll[1]) ?? 0) + 1);
          return sendJson(response, 200, { status: "ready" });
        }
        if (request.path === "/image-upscaling") {
          abandonedReceived += 1;
          return; // Never answers: the process making this call is killed meanwhile.
        }
        sendJson(response, 404, { error: "unknown" });
      });
      storage = await createProcessStorage();
      database = openStorage(storage);
      const env = {
        ...storage.env,
        MODEL_SERVER_URL: modelServer.url,
        MODEL_SERVER_FEATURES: "image-background-removal,image-upscaling,pegasus-training",
        S3_BUCKET: "prism",
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        S3_FORCE_PATH_STYLE: "true",
        // A call is taken for abandoned 2.25 s after it started, and sweeps come every quarter second.
        PROVIDER_TIMEOUT_MS: "2000",
        REQUEST_SWEEP_INTERVAL_MS: "250",
        ORGANIZATION_QUEUED_CALLS: "0",
        API_KEY_REQUESTS_PER_MINUTE: "0",
      };
      crashed = await seedAccount(storage, 1_000_000n, env);

      // A third process takes three calls and is killed while the model server holds them.
      const doomed = await startServerProcess(env);
      try {
        for (let index = 0; index < 3; index += 1) {
          void callFeature(doomed, crashed.apiKey, UPSCALING).catch(() => undefined);
        }
        await waitFor(
          "the doomed process's calls to reach the model server",
          async () => abandonedReceived === 3,
        );
      } finally {
        await doomed.stop("SIGKILL");
      }

      [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop("SIGTERM"), b?.stop("SIGTERM")]);
      await database?.close();
      await storage?.remove();
      await modelServer?.close();
      await s3?.close();
      if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
    });

    it("never overspends one balance with concurrent calls spread over both processes", async () => {
      const account = await seedAccount(storage, 5n * PRICE + PRICE / 2n);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          callFeature(both()[index % 2] as ServerProcess, account.apiKey, BACKGROUND_REMOVAL),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(
        statuses.filter((status) => status === 200),
        JSON.stringify(answers.map((x) => x.text)),
      ).toHaveLength(5);
      expect(statuses.filter((status) => status === 402)).toHaveLength(11);

      const money = await readMoney(database.db, account.organizationId);
      expect(money.balance).toBe(PRICE / 2n);
      expect(money.ledger).toBe(money.balance);
      const kinds = [...kindsByRequest(money.entries).values()];
      expect(kinds).toHaveLength(5);
      for (const entry of kinds) expect(entry).toEqual(["reservation", "settlement"]);
      expect(money.rows.filter((row) => row.status === "done")).toHaveLength(5);
    });

    it("submits each training once and runs each status poll once, whichever process holds the job", async () => {
      const account = await seedAccount(storage, 4n * TRAINING_PRICE);
      await database.db
        .update(organizations)
        .set({ isNew: false })
        .where(eq(organizations.id, account.organizationId));
      const images = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(32 + index, 32)));
      const parts = (name: string) => [
        ...images.map((image, index) => ({
          name: "images",
          value: image,
          filename: `face-${index}.png`,
          contentType: "image/png",
        })),
        { name: "description", value: name },
      ];
      const submittedBefore = submissions.length;
      const answers = await Promise.all(
        ["one", "two", "three", "four"].map((name, index) =>
          callFeature(both()[index % 2] as ServerProcess, account.apiKey, TRAINING, parts(name)),
        ),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const identities = submissions.slice(submittedBefore);
      expect(identities).toHaveLength(4);

      const rows = () =>
        database.db
          .select()
          .from(featureRequests)
          .where(eq(featureRequests.organizationId, account.organizationId));
      // Both processes' workers compete for the status polls: each identity is asked about once.
      await waitFor("every clone to be ready", async () =>
        (await rows()).every((row) => (row.responseBody as { status?: string } | null)?.status === "ready"),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      for (const identity of identities) expect(pollsByIdentity.get(identity), identity).toBe(1);
      const requestIds = new Set((await rows()).map((row) => row.id));
      const ours = (await database.db.select().from(jobs).where(eq(jobs.kind, TRAINING_POLL_JOB))).filter(
        (job) => requestIds.has(String((job.payload as { requestId?: unknown }).requestId)),
      );
      expect(ours).toHaveLength(4);
      for (const job of ours) expect(job).toMatchObject({ status: "done", attempts: 1 });
      const money = await readMoney(database.db, account.organizationId);
      expect(money.balance).toBe(0n);
    });

    it("refunds each call a killed process abandoned exactly once, whichever process sweeps", async () => {
      const rows = () =>
        database.db
          .select()
          .from(featureRequests)
          .where(eq(featureRequests.organizationId, crashed.organizationId));
      await waitFor("the abandoned calls to be failed", async () =>
        (await rows()).every((row) => row.status === "error"),
      );
      // More sweeps on both processes must change nothing.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const money = await readMoney(database.db, crashed.organizationId);
      expect(money.rows).toHaveLength(3);
      const kinds = [...kindsByRequest(money.entries).values()];
      expect(kinds).toHaveLength(3);
      for (const entry of kinds) expect(entry).toEqual(["refund", "reservation"]);
      expect(money.balance).toBe(1_000_000n);
      expect(money.ledger).toBe(1_000_000n);
      // Each process counts only the refunds it made itself: together, each call once.
      const counts = await Promise.all(
        both().map(async (server) =>
          sample(await (await fetch(`${server.url}/metrics`)).text(), "prism_sweeper_refunds_total"),
        ),
      );
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(3);
    });

    it("counts sign-in attempts for one email across both processes", async () => {
      const account = await seedAccount(storage, 0n);
      const login = (server: ServerProcess, password: string) =>
        fetch(`${server.url}/v1/users/login`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({ email: account.email, password, rememberMe: false }),
        });
      // The per-email limit is ten attempts in ten minutes, whichever process takes them.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const response = await login(both()[attempt % 2] as ServerProcess, "Wrong-password-1!");
        expect(response.status, `attempt ${attempt + 1}`).toBe(401);
      }
      for (const server of both()) {
        const refused = await login(server, STRONG_PASSWORD);
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({ error: "rate-limited" });
      }
    });

    it("serves from one process a file the other stored", async () => {
      const account = await seedAccount(storage, 10n * PRICE);
      const made = await callFeature(a, account.apiKey, BACKGROUND_REMOVAL);
      expect(made.status, made.text).toBe(200);
      const fileUrl = (made.json.request as { response_data: { file: string } }).response_data.file;
      expect(fileUrl).toMatch(/^\/v1\/files\//);
      const fetchFrom = (server: ServerProcess) =>
        fetch(`${server.url}${fileUrl}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
      const fromB = await fetchFrom(b);
      expect(fromB.status).toBe(200);
      expect(fromB.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await fromB.arrayBuffer());
      const fromA = Buffer.from(await (await fetchFrom(a)).arrayBuffer());
      expect(bytes.equals(fromA)).toBe(true);
      expect((await sharp(bytes).metadata()).format).toBe("png");
      // Neither process kept it on its own disk: the bucket holds it.
      expect(existsSync(join(storage.dataDir, "files"))).toBe(false);
    });
  },
);

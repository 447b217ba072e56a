import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { makePng, multipart } from "../../../test/images";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { loadConfig } from "../../config";
import { LocalFileStore } from "../../providers/storage/file-store";
import { WEBHOOK_DELIVERY_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";

/** The value of one sample line `name{labels} value` of the text format, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(/\s/)[0] ?? "";
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return undefined;
}

const TOKEN = "metrics-token-for-the-tests-0123";

describe("metrics and readiness", () => {
  let modelServer: StubModelServer;
  let testApp: TestApp;
  let apiKey: string;

  const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const response = await testApp.app.inject({ method: "GET", url: "/metrics", headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    modelServer = await startModelServerStub({
      answers: { "/image-background-removal": "png" },
      otherwise: { status: 500, json: { error: "CUDA out of memory" } },
    });
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal,image-upscaling",
      METRICS_TOKEN: TOKEN,
    });
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const projectId = owner.userInfo.organizations[0].projects[0].id;
    apiKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "metrics" },
        { session: owner.session },
      )
    ).json().apiKey.content;
    await addSandboxCard(testApp, owner.session, organizationId);
    await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 20 },
      { session: owner.session },
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("refuses /metrics without the bearer token when METRICS_TOKEN is set, in the error shape", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-of-some-length", TOKEN, `Basic ${TOKEN}`]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(response.json()).toMatchObject({
        error: "unauthenticated",
        message: "Send the metrics token as `Authorization: Bearer <token>`.",
      });
    }
    expect(await scrape()).toContain("# TYPE prism_http_request_duration_seconds histogram");
  });

  it("times HTTP requests by route pattern and status, never by raw URL", async () => {
    await testApp.app.inject({ method: "GET", url: "/healthz" });
    await testApp.app.inject({ method: "GET", url: "/v1/files/a/b/c" });
    const text = await scrape();
    expect(
      sample(text, "prism_http_request_duration_seconds_count", { route: "/healthz", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "prism_http_request_duration_seconds_count", {
        route: "/v1/files/:organizationId/:projectId/:name",
        status: "404",
      }),
    ).toBe(1);
    expect(text).not.toContain('route="/v1/files/a/b/c"');
  });

  it("counts feature calls by feature, provider and outcome, with their durations", async () => {
    const call = (endpoint: string) => {
      const body = multipart([
        { name: "image", value: png, filename: "photo.png", contentType: "image/png" },
      ]);
      return testApp.app.inject({
        method: "POST",
        url: endpoint,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
        payload: body.payload,
      });
    };
    const png = await makePng(32, 32);
    expect((await call("/v1/images/background-removal")).statusCode).toBe(200);
    expect((await call("/v1/images/background-removal")).statusCode).toBe(200);
    expect((await call("/v1/images/upscaling")).statusCode).toBe(502);
    const text = await scrape();
    const ok = { feature: "image-background-removal", provider: "http", outcome: "ok" };
    const failed = { feature: "image-upscaling", provider: "http", outcome: "failed" };
    expect(sample(text, "prism_feature_calls_total", ok)).toBe(2);
    expect(sample(text, "prism_feature_calls_total", failed)).toBe(1);
    expect(sample(text, "prism_feature_call_duration_seconds_count", ok)).toBe(2);
    expect(sample(text, "prism_feature_call_duration_seconds_sum", ok)).toBeGreaterThan(0);
  });

  it("reports the job queue's depth by kind and state and the age of its oldest due job", async () => {
    const db = testApp.database.db;
    // This app runs no worker: the jobs stay queued for the scrape to count.
    const probe = { deliveryId: "metrics-probe" };
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, probe, new Date(Date.now() - 90_000));
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, probe, new Date(Date.now() - 30_000));
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, probe, new Date(Date.now() + 3_600_000));
    const text = await scrape();
    const kind = WEBHOOK_DELIVERY_JOB;
    expect(sample(text, "prism_job_queue_jobs", { kind, state: "due" })).toBe(2);
    expect(sample(text, "prism_job_queue_jobs", { kind, state: "scheduled" })).toBe(1);
    expect(sample(text, "prism_job_queue_jobs", { kind, state: "running" })).toBe(0);
    const age = sample(text, "prism_job_queue_oldest_due_seconds", { kind }) ?? 0;
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(200);
  });

  it("counts mail deliveries by transport and outcome", async () => {
    const before = sample(await scrape(), "prism_mail_deliveries_total", {
      transport: "outbox",
      outcome: "sent",
    });
    await signUpAndConfirm(testApp);
    const after = sample(await scrape(), "prism_mail_deliveries_total", {
      transport: "outbox",
      outcome: "sent",
    });
    expect((after ?? 0) - (before ?? 0)).toBe(1);
  });

  it("reports event-loop lag, and the connection pool on PostgreSQL only", async () => {
    const text = await scrape();
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    if (testApp.database.kind === "postgres") {
      expect(sample(text, "prism_db_pool_connections", { state: "max" })).toBe(10);
      expect(sample(text, "prism_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    } else {
      expect(sample(text, "prism_db_pool_connections", { state: "max" })).toBeUndefined();
    }
  });

  it("answers /readyz when the database and the file store answer", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: testApp.database.kind, fileStore: "local" });
  });
});

describe("metrics and readiness, other set-ups", () => {
  it("leaves /metrics open on the embedded defaults", async () => {
    const testApp = await createTestApp();
    try {
      const response = await testApp.app.inject({ method: "GET", url: "/metrics" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    } finally {
      await testApp.close();
    }
  });

  it("never leaves /metrics open in production, even on a configuration built without a token", async () => {
    const base = loadConfig({ APP_ENV: "test", LOG_LEVEL: "silent", BUILTIN_ENGINE: "off" });
    const testApp = await createTestApp(
      {},
      { config: { ...base, isProduction: true, metricsToken: undefined } },
    );
    try {
      const response = await testApp.app.inject({ method: "GET", url: "/metrics" });
      expect(response.statusCode).toBe(401);
    } finally {
      await testApp.close();
    }
  });

  it("answers /readyz 503 naming the file store when it cannot take writes, while /healthz stays up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prism-blocked-"));
    writeFileSync(join(dir, "files"), "a file where the store's directory should be");
    const testApp = await createTestApp({}, { files: new LocalFileStore(join(dir, "files", "inner")) });
    try {
      const ready = await testApp.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        error: "service-unavailable",
        message: "The file store is unreachable.",
      });
      expect((await testApp.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await testApp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers /readyz 503 naming the database when it is gone", async () => {
    const testApp = await createTestApp();
    try {
      await testApp.database.close();
      const ready = await testApp.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ message: "The database is unreachable." });
    } finally {
      await testApp.close().catch(() => undefined);
    }
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/test-database";
import { buildApp } from "../app";
import { createDependencies } from "../app-dependencies";
import { loadConfig } from "../config";
import { AppError } from "../errors";

interface LogLine {
  reqId?: string;
  msg?: string;
}

describe("request ids", () => {
  let app: FastifyInstance;
  let dataDir: string;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "prism-request-id-"));
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    });
    const config = loadConfig({ APP_ENV: "test", DATA_DIR: dataDir, BUILTIN_ENGINE: "off" });
    const deps = createDependencies(config, await createTestDatabase());
    app = await buildApp(deps, { logger: { level: "info", stream }, runJobs: false });
    // A service holds the application's logger, not the request's; its lines must still name the request.
    app.post("/test/service-logs", async (request) => {
      app.log.info({ body: request.body }, "service line before an await");
      await sleep(5);
      await new Promise<void>((resolve) => setImmediate(resolve));
      app.log.warn("service line after awaits");
      request.log.info("request logger line");
      throw new AppError("unprocessable-input", "The service refused this.");
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("returns the request id in the x-request-id header and in every error body", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/users/me",
      headers: { origin: "http://localhost:80" },
    });
    expect(response.statusCode).toBe(401);
    const id = response.headers["x-request-id"];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json()).toEqual({
      error: "unauthenticated",
      message: "Please sign in to continue.",
      requestId: id,
    });

    const notFound = await app.inject({
      method: "GET",
      url: "/v1/nothing-here",
      headers: { "x-request-id": "support-7" },
    });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toMatchObject({ error: "route-not-found", requestId: "support-7" });
  });

  it("puts the request id on every log line of the request, also lines logged through the app's logger", async () => {
    lines.length = 0;
    const [first, second] = await Promise.all([
      app.inject({
        method: "POST",
        url: "/test/service-logs",
        payload: { n: 1 },
        headers: { "x-request-id": "call-one" },
      }),
      app.inject({
        method: "POST",
        url: "/test/service-logs",
        payload: { n: 2 },
        headers: { "x-request-id": "call-two" },
      }),
    ]);
    expect(first.json()).toMatchObject({ error: "unprocessable-input", requestId: "call-one" });
    expect(second.json()).toMatchObject({ error: "unprocessable-input", requestId: "call-two" });

    for (const id of ["call-one", "call-two"]) {
      const own = lines.filter((line) => line.reqId === id).map((line) => line.msg);
      expect(own).toEqual(
        expect.arrayContaining([
          "incoming request",
          "service line before an await",
          "service line after awaits",
          "request logger line",
          "request completed",
        ]),
      );
    }
    // No line of these requests went out without its id.
    expect(lines.filter((line) => line.reqId === undefined)).toEqual([]);
  });

  it("logs lines outside any request without a request id", async () => {
    lines.length = 0;
    app.log.info("background line");
    await sleep(5);
    expect(lines).toEqual([expect.objectContaining({ msg: "background line" })]);
    expect(lines[0]?.reqId).toBeUndefined();
  });
});

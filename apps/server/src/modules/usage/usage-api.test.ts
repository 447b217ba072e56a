import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  backgroundRemovalFeature,
  microsToUsd,
  PLAYGROUND_CALLER,
  type UsageBucket,
  usdToMicros,
} from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import { makePng, makeWav, multipart } from "../../../test/images";
import { fundedAccount } from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { STUB_MODEL_SERVER_FEATURES, startStubModelServer } from "../../../test/model-server-stub";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { featureRequests, projects, usageDaily, usageDailyKeys } from "../../db/schema";
import { addUsage } from "../features/feature-requests.store";

/**
 * The usage API (`GET /v1/usage`) and one call's status (`GET /v1/requests/{id}`) for API keys. The
 * buckets come from the daily rollups (the project's, and the keys' for the API key grouping); each
 * grouping is checked against a recomputation from the request log itself.
 */
const REMOVAL_PRICE = microsToUsd(backgroundRemovalFeature.billing.defaultPriceMicros);

describe("the usage API and request status for API keys", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let organizationId: string;
  let projectId: string;
  let session: string;
  let keyA: string;
  let keyB: string;
  let keyBId: string;
  let strangerKey: string;
  let firstCallId: string;

  const db = () => testApp.database.db;

  const get = (url: string, key?: string) =>
    testApp.app.inject({
      method: "GET",
      url,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });

  const removeBackground = async (headers: Record<string, string>) => {
    const body = multipart([
      { name: "image", value: await makePng(16, 16), filename: "a.png", contentType: "image/png" },
    ]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { ...headers, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  const transcribe = async (key: string, seconds: number) => {
    const body = multipart([
      { name: "audio", value: makeWav(seconds), filename: "a.wav", contentType: "audio/wav" },
    ]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/speech/transcription",
      headers: { authorization: `Bearer ${key}`, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** A settled call of an earlier day, written as the pipeline writes one (request row and rollup). */
  const seedSettledCall = async (input: { day: string; endpoint: string; units: number; micros: bigint }) => {
    await db().transaction(async (tx) => {
      await tx.insert(featureRequests).values({
        id: randomUUID(),
        organizationId,
        projectId,
        endpoint: input.endpoint,
        callType: input.endpoint.split("/").at(-1) ?? "",
        status: "done",
        provider: "http",
        requestFiles: {},
        requestBody: {},
        units: input.units,
        priceMicros: input.micros,
        createdAt: new Date(`${input.day}T12:00:00Z`),
        completedAt: new Date(`${input.day}T12:00:01Z`),
      });
      await addUsage(tx, {
        projectId,
        apiKeyId: null,
        endpoint: input.endpoint,
        callType: input.endpoint.split("/").at(-1) ?? "",
        day: input.day,
        units: input.units,
        costMicros: input.micros,
      });
    });
  };

  beforeAll(async () => {
    modelServer = await startStubModelServer();
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: STUB_MODEL_SERVER_FEATURES,
      PUBLIC_URL: "https://console.example.com",
    });
    const account = await fundedAccount(testApp, 10_000_000n);
    session = account.owner.session;
    ({ organizationId, projectId } = account);
    keyA = (await account.createKey(undefined, "Alpha")).content;
    ({ content: keyB, id: keyBId } = await account.createKey(undefined, "Beta"));
    strangerKey = (await (await fundedAccount(testApp, 10_000_000n)).createKey()).content;

    firstCallId = (await removeBackground({ authorization: `Bearer ${keyA}` })).request.id;
    await removeBackground({ authorization: `Bearer ${keyA}` });
    await removeBackground({ authorization: `Bearer ${keyB}` });
    await removeBackground({
      cookie: `prism_session=${session}`,
      "x-authorization-project": projectId,
      ...SAME_ORIGIN,
    });
    await transcribe(keyB, 130);
    await removeBackground({ authorization: `Bearer ${strangerKey}` });
    // A failed call is refunded: it is in no bucket.
    const failed = multipart([
      { name: "image", value: await makePng(16, 16), filename: "a.png", contentType: "image/png" },
      { name: "scale", value: "2" },
    ]);
    const refused = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/upscaling",
      headers: { authorization: `Bearer ${keyA}`, "content-type": failed.contentType },
      payload: failed.payload,
    });
    expect(refused.statusCode).toBe(502);
    await seedSettledCall({
      day: "2026-01-30",
      endpoint: "/v1/images/background-removal",
      units: 1,
      micros: 20_000n,
    });
    await seedSettledCall({
      day: "2026-01-31",
      endpoint: "/v1/speech/transcription",
      units: 4,
      micros: 40_000n,
    });
    await seedSettledCall({
      day: "2026-02-01",
      endpoint: "/v1/speech/transcription",
      units: 2,
      micros: 20_000n,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  /** The buckets recomputed from the project's settled calls in the request log. */
  const recompute = async (start: string, end: string, groupBy: string) => {
    const rows = await db()
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.projectId, projectId), eq(featureRequests.status, "done")));
    const [project] = await db().select().from(projects).where(eq(projects.id, projectId));
    const buckets = new Map<string, { calls: number; units: number; micros: bigint }>();
    for (const row of rows) {
      const day = row.createdAt.toISOString().slice(0, 10);
      if (day < start || day > end) continue;
      const key =
        groupBy === "day"
          ? day
          : groupBy === "feature"
            ? row.endpoint
            : groupBy === "project"
              ? (project?.id ?? "")
              : (row.apiKeyId ?? "null");
      const bucket = buckets.get(key) ?? { calls: 0, units: 0, micros: 0n };
      bucket.calls += 1;
      bucket.units += row.units;
      bucket.micros += row.priceMicros;
      buckets.set(key, bucket);
    }
    return buckets;
  };

  it("answers buckets equal to a recomputation from the request log, for every grouping", async () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const [start, end] of [
      ["2026-01-01", today],
      ["2026-01-31", "2026-02-01"],
      [today, today],
    ] as const) {
      for (const groupBy of ["day", "feature", "project", "api_key"]) {
        const response = await get(`/v1/usage?start=${start}&end=${end}&group_by=${groupBy}`, keyA);
        expect(response.statusCode, response.body).toBe(200);
        const answer = response.json() as { group_by: string; buckets: UsageBucket[] };
        expect(answer.group_by).toBe(groupBy);
        const expected = await recompute(start, end, groupBy);
        const actual = new Map(
          answer.buckets.map((bucket) => [
            bucket.key ?? "null",
            { calls: bucket.calls, units: bucket.units, micros: usdToMicros(bucket.cost) },
          ]),
        );
        expect(actual, `${groupBy} ${start}..${end}`).toEqual(expected);
      }
    }
  });

  it("names the buckets: features, the project, each key and the console as Playground", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const byKey = (await get(`/v1/usage?start=${today}&end=${today}&group_by=api_key`, keyB)).json();
    expect(byKey.buckets.map((bucket: UsageBucket) => [bucket.name, bucket.calls]).sort()).toEqual([
      ["Alpha", 2],
      ["Beta", 2],
      [PLAYGROUND_CALLER, 1],
    ]);
    const byFeature = (await get(`/v1/usage?start=2026-01-31&end=2026-01-31&group_by=feature`, keyB)).json();
    expect(byFeature.buckets).toEqual([
      { key: "/v1/speech/transcription", name: "Speech to Text", calls: 1, units: 4, cost: 0.04 },
    ]);
    // The stranger's key sees its own project only.
    const stranger = (
      await get(`/v1/usage?start=${today}&end=${today}&group_by=project`, strangerKey)
    ).json();
    expect(stranger.buckets).toHaveLength(1);
    expect(stranger.buckets[0]).toMatchObject({ calls: 1, cost: REMOVAL_PRICE });
  });

  it("refuses bad ranges and groupings with 400", async () => {
    for (const query of [
      "start=2026-02-01&end=2026-01-01&group_by=day",
      "start=2024-01-01&end=2026-01-01&group_by=day",
      "start=2026-01-01&end=2026-01-31&group_by=organization",
      "start=yesterday&end=2026-01-31&group_by=day",
      "",
    ]) {
      const response = await get(`/v1/usage?${query}`, keyA);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toBe("invalid-input");
    }
  });

  it("answers one call's status, result file URL and cost to its project's keys only", async () => {
    const own = await get(`/v1/requests/${firstCallId}`, keyB);
    expect(own.statusCode, own.body).toBe(200);
    const detail = own.json();
    expect(detail).toMatchObject({
      id: firstCallId,
      endpoint: "/v1/images/background-removal",
      status: "succeeded",
      cost: REMOVAL_PRICE,
      error_message: null,
    });
    expect(detail.response_data.file).toMatch(/^https:\/\/console\.example\.com\/v1\/files\//);
    expect(detail.completed_date).not.toBeNull();

    const [failed] = await db()
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.projectId, projectId), eq(featureRequests.status, "error")));
    const failedDetail = (await get(`/v1/requests/${failed?.id}`, keyA)).json();
    expect(failedDetail).toMatchObject({
      status: "failed",
      cost: 0,
      error: "feature-failed",
      endpoint: "/v1/images/upscaling",
    });
    expect(failedDetail.error_message).toEqual(expect.any(String));

    for (const [url, key] of [
      [`/v1/requests/${firstCallId}`, strangerKey],
      [`/v1/requests/${randomUUID()}`, keyA],
      ["/v1/requests/'; drop table users; --", keyA],
    ] as const) {
      const response = await get(url, key);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: "not-found", message: "Request not found." });
    }
  });

  it("writes no key row for a playground call, which the key grouping shows as Playground", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const keyRows = () => db().select().from(usageDailyKeys).where(eq(usageDailyKeys.projectId, projectId));
    const projectCalls = async () =>
      (await db().select().from(usageDaily).where(eq(usageDaily.projectId, projectId))).reduce(
        (total, row) => total + row.calls,
        0,
      );
    const playgroundBucket = async () =>
      (
        (await get(`/v1/usage?start=${today}&end=${today}&group_by=api_key`, keyA)).json()
          .buckets as UsageBucket[]
      ).find((bucket) => bucket.key === null);
    const rowsBefore = await keyRows();
    const callsBefore = await projectCalls();
    const bucketBefore = await playgroundBucket();

    await removeBackground({
      cookie: `prism_session=${session}`,
      "x-authorization-project": projectId,
      ...SAME_ORIGIN,
    });

    expect(await projectCalls()).toBe(callsBefore + 1);
    expect(await keyRows()).toEqual(rowsBefore);
    expect(await playgroundBucket()).toEqual({
      key: null,
      name: PLAYGROUND_CALLER,
      calls: (bucketBefore?.calls ?? 0) + 1,
      units: (bucketBefore?.units ?? 0) + 1,
      cost: microsToUsd(
        usdToMicros(bucketBefore?.cost ?? 0) + BigInt(backgroundRemovalFeature.billing.defaultPriceMicros),
      ),
    });
  });

  it("rebuilds with the migration's backfill the key rollup the settlements wrote", async () => {
    const migration = await readFile(
      new URL("../../../drizzle/0017_usage_daily_keys.sql", import.meta.url),
      "utf8",
    );
    const backfill = migration
      .split("--> statement-breakpoint")
      .find((statement) => statement.includes('INSERT INTO "usage_daily_keys"'));
    expect(backfill).toBeDefined();
    const sorted = (rows: (typeof usageDailyKeys.$inferSelect)[]) =>
      rows
        .filter((row) => row.calls > 0)
        .map((row) => ({ ...row, costMicros: String(row.costMicros) }))
        .sort((a, b) =>
          `${a.projectId}${a.day}${a.apiKeyId}`.localeCompare(`${b.projectId}${b.day}${b.apiKeyId}`),
        );
    const written = sorted(await db().select().from(usageDailyKeys));
    // Both of the project's keys and the stranger's called today: the comparison is not of nothing.
    expect(written.map((row) => row.calls).reduce((total, calls) => total + calls, 0)).toBeGreaterThanOrEqual(
      4,
    );

    await db().delete(usageDailyKeys);
    await db().execute(sql.raw(backfill ?? ""));

    expect(sorted(await db().select().from(usageDailyKeys))).toEqual(written);
  });

  it("keeps a deleted key's calls in its own bucket, under its name", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const byKey = async () =>
      (await get(`/v1/usage?start=${today}&end=${today}&group_by=api_key`, keyA)).json()
        .buckets as UsageBucket[];
    const before = (await byKey()).find((bucket) => bucket.key === keyBId);
    expect(before).toMatchObject({ name: "Beta", calls: 2 });
    const deleted = await post(
      testApp,
      "/v1/users/api-keys/delete",
      { projectId, apiKeyId: keyBId },
      { session },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await get(`/v1/usage?start=${today}&end=${today}&group_by=api_key`, keyB)).statusCode).toBe(401);
    expect((await byKey()).find((bucket) => bucket.key === keyBId)).toEqual(before);
  });
});

import {
  type FeatureCallResponse,
  IDEMPOTENCY_IN_PROGRESS,
  IDEMPOTENCY_IN_PROGRESS_RETRY_AFTER_SECONDS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyInvalidText,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callWithUnreadableBody,
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { idempotencyKeys, ledgerEntries } from "../../db/schema";
import { cachedBalance } from "../ledger/ledger.service";
import { claimIdempotencyKey, hashFeatureRequest } from "./idempotency";
import { completeIdempotencyKey, deleteExpiredIdempotencyKeys } from "./idempotency.store";

const PRICE = 10_000n; // Background removal, in micro-dollars.

describe("Idempotency-Key on feature calls", () => {
  const model = { delayMs: 0 };
  let modelServer: LocalServer;
  let testApp: TestApp;
  const modelCalls = () => modelServer.requests.filter((request) => request.method === "POST").length;

  beforeAll(async () => {
    modelServer = await startImageModelServer(model);
    testApp = await createTestApp(imageModelEnv(modelServer));
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("runs 20 simultaneous calls with one key once: one charge, one row, twenty identical answers", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const before = modelCalls();
    model.delayMs = 200;
    let responses: Awaited<ReturnType<typeof removeBackground>>[];
    try {
      responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          removeBackground(testApp, key.content, { headers: { "idempotency-key": "order-1234" } }),
        ),
      );
    } finally {
      model.delayMs = 0;
    }
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const bodies = responses.map((response) => response.json());
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].balance).toBe(0.99);
    expect(bodies[0].request.response_data.file).toEqual(expect.any(String));
    expect(
      responses.filter((response) => response.headers[IDEMPOTENT_REPLAYED_HEADER] === "true"),
    ).toHaveLength(19);
    expect(modelCalls() - before).toBe(1);
    const rows = await account.requestRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(bodies[0].request.id);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - PRICE);
    const reservations = await testApp.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.organizationId, account.organizationId));
    expect(reservations.filter((entry) => entry.kind === "reservation")).toHaveLength(1);

    // A retry later gets the same answer again, still without running or paying.
    const retry = await removeBackground(testApp, key.content, {
      headers: { "idempotency-key": "order-1234" },
    });
    expect(retry.json()).toEqual(bodies[0]);
    expect(modelCalls() - before).toBe(1);
  });

  it("answers 422 idempotency-key-reused to the same key with a different request", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const first = await removeBackground(testApp, key.content, { headers: { "idempotency-key": "k-1" } });
    expect(first.statusCode).toBe(200);
    const other = await sharp({ create: { width: 9, height: 9, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const reused = await removeBackground(testApp, key.content, {
      headers: { "idempotency-key": "k-1" },
      image: other,
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ error: "idempotency-key-reused", message: IDEMPOTENCY_KEY_REUSED });
    expect(await account.requestRows()).toHaveLength(1);
    // Keys are per API key: another key may use the same string for its own call.
    const otherKey = await account.createKey();
    const own = await removeBackground(testApp, otherKey.content, {
      headers: { "idempotency-key": "k-1" },
      image: other,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().request.id).not.toBe(first.json().request.id);
  });

  it("refuses an empty or overlong key from the headers, and releases the key of a failed call", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const long = await callWithUnreadableBody(testApp, key.content, "/v1/images/background-removal", {
      headers: { "idempotency-key": "x".repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(idempotencyKeyInvalidText(IDEMPOTENCY_KEY_MAX_LENGTH));
    const longest = await removeBackground(testApp, key.content, {
      headers: { "idempotency-key": "y".repeat(IDEMPOTENCY_KEY_MAX_LENGTH) },
    });
    expect(longest.statusCode).toBe(200);

    const broken = await removeBackground(testApp, key.content, {
      headers: { "idempotency-key": "broken" },
      image: Buffer.from("not an image"),
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    const stored = await testApp.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, "broken"));
    expect(stored).toEqual([]);
  });

  it("keeps answers 24 hours", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    await removeBackground(testApp, key.content, { headers: { "idempotency-key": "day" } });
    const [row] = await testApp.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, "day"));
    expect(row?.status).toBe("done");
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 24 * 3_600_000)).toBeLessThan(60_000);
    expect(
      await deleteExpiredIdempotencyKeys(testApp.database.db, new Date(Date.now() + 23 * 3_600_000)),
    ).toBe(0);
    expect(
      await deleteExpiredIdempotencyKeys(testApp.database.db, new Date(Date.now() + 25 * 3_600_000)),
    ).toBeGreaterThanOrEqual(1);
    // Gone from the store, the key runs a new call.
    const again = await removeBackground(testApp, key.content, { headers: { "idempotency-key": "day" } });
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await account.requestRows()).toHaveLength(2);
  });

  it("answers 409 idempotency-in-progress when the first call outlasts the retry's wait", async () => {
    const claim = { scope: "key:wait-test", key: "slow", requestHash: "h1" };
    const options = { staleAfterMs: 60_000, waitMs: 150 };
    expect(await claimIdempotencyKey(testApp.database.db, claim, options)).toEqual({ kind: "claimed" });
    const started = Date.now();
    await expect(claimIdempotencyKey(testApp.database.db, claim, options)).rejects.toMatchObject({
      code: "idempotency-in-progress",
      message: IDEMPOTENCY_IN_PROGRESS,
      // When to retry, as the OpenAPI document says (issue 30 item 3).
      headers: { "retry-after": String(IDEMPOTENCY_IN_PROGRESS_RETRY_AFTER_SECONDS) },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // A retry that is waiting gets the answer as soon as the first call stores it.
    const waiting = claimIdempotencyKey(testApp.database.db, claim, { ...options, waitMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer: FeatureCallResponse = {
      balance: 1.5,
      cost: 0.01,
      request: {
        id: "00000000-0000-4000-8000-000000000042",
        request_date: new Date(0).toISOString(),
        request_data: { files: {}, body: {} },
        response_data: {},
        status: "done",
        cost: 0.01,
      },
    };
    await completeIdempotencyKey(testApp.database.db, claim, 200, answer);
    expect(await waiting).toEqual({ kind: "replay", status: 200, body: answer });
  });

  it("takes over a key left running by a crashed process once it is stale", async () => {
    const claim = { scope: "key:stale-test", key: "crashed", requestHash: "h1" };
    expect(
      await claimIdempotencyKey(testApp.database.db, claim, { staleAfterMs: 60_000, waitMs: 0 }),
    ).toEqual({
      kind: "claimed",
    });
    await testApp.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(idempotencyKeys.key, "crashed"));
    expect(
      await claimIdempotencyKey(testApp.database.db, claim, { staleAfterMs: 60_000, waitMs: 0 }),
    ).toEqual({
      kind: "claimed",
    });
  });

  it("hashes the method, path, fields and file contents", () => {
    const base = {
      method: "POST",
      path: "/v1/images/background-removal",
      headers: {},
      fields: { a: "1", b: "2" },
      files: { image: [Buffer.from("abc")] },
    };
    const hash = hashFeatureRequest(base);
    expect(hashFeatureRequest({ ...base, fields: { b: "2", a: "1" } })).toBe(hash);
    expect(hashFeatureRequest({ ...base, fields: { a: "1", b: "3" } })).not.toBe(hash);
    expect(hashFeatureRequest({ ...base, files: { image: [Buffer.from("abd")] } })).not.toBe(hash);
    expect(hashFeatureRequest({ ...base, path: "/v1/images/upscaling" })).not.toBe(hash);
    // Field boundaries count: "ab"+"c" is not "a"+"bc".
    expect(hashFeatureRequest({ ...base, fields: { a: "12" } })).not.toBe(
      hashFeatureRequest({ ...base, fields: { a: "1", "2": "" } }),
    );
  });
});

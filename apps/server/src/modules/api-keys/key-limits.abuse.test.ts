import {
  API_KEY_EXPIRED,
  ipNotAllowedText,
  keyFeatureNotAllowedText,
  keySpendCapReachedText,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  callFeature,
  callWithUnreadableBody,
  fundedAccount,
  imageModelEnv,
  limitsWith,
  removeBackground,
  startImageModelServer,
  TINY_PNG,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { apiKeys } from "../../db/schema";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * Keys a team can hand out (issue 17), attacked through HTTP: every limit refuses from the headers
 * alone (a body that cannot even be parsed gets the limit's answer, not 415), and a refused call
 * leaves the balance, the request log and the model untouched.
 */

const PRICE = 10_000n; // Background removal, in micro-dollars.
const GENERATE = "/v1/images/generation";

describe("API keys with limits", () => {
  const model: { delayMs: number; fail?: boolean } = { delayMs: 0 };
  let modelServer: LocalServer;
  let testApp: TestApp;
  const modelCalls = () => modelServer.requests.filter((request) => request.method === "POST").length;

  beforeAll(async () => {
    modelServer = await startImageModelServer(model);
    // No organization-wide concurrency limit here, so only the key's caps decide concurrent calls.
    testApp = await createTestApp({ ...imageModelEnv(modelServer), ORGANIZATION_QUEUED_CALLS: "0" });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("creates a key with limits, lists them, edits them and refuses limits that are not valid", async () => {
    const account = await fundedAccount(testApp, 0n);
    const limits = limitsWith({
      endpoints: ["/v1/images/background-removal"],
      monthlySpendCap: 20,
      lifetimeSpendCap: 100,
      expiresAt: "2030-01-04T17:00:00.000Z",
      allowedIps: ["203.0.113.7", "2001:db8::/32"],
      requestsPerMinute: 30,
    });
    const key = await account.createKey(limits);
    const listed = await post(
      testApp,
      "/v1/users/api-keys/list",
      { projectId: account.projectId },
      { session: account.owner.session },
    );
    expect(listed.json().apiKeys[0]).toMatchObject({ limits, spendThisMonth: 0, expired: false });
    const [row] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject({ monthlySpendCapMicros: 20_000_000n, lifetimeSpendCapMicros: 100_000_000n });

    const edited = await post(
      testApp,
      "/v1/users/api-keys/update",
      {
        projectId: account.projectId,
        apiKeyId: key.id,
        apiKeyName: "contractor",
        limits: limitsWith({ monthlySpendCap: 5 }),
      },
      { session: account.owner.session },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    // A rename alone keeps the limits.
    await post(
      testApp,
      "/v1/users/api-keys/update",
      { projectId: account.projectId, apiKeyId: key.id, apiKeyName: "renamed" },
      { session: account.owner.session },
    );
    const after = (
      await post(
        testApp,
        "/v1/users/api-keys/list",
        { projectId: account.projectId },
        { session: account.owner.session },
      )
    ).json().apiKeys[0];
    expect(after).toMatchObject({ name: "renamed", limits: limitsWith({ monthlySpendCap: 5 }) });

    for (const bad of [
      limitsWith({ allowedIps: ["203.0.113.300"] }),
      limitsWith({ allowedIps: ["10.0.0.0/33"] }),
      limitsWith({ endpoints: ["/v1/not-a-feature"] as never }),
      limitsWith({ endpoints: [] }),
      limitsWith({ monthlySpendCap: -1 }),
      limitsWith({ monthlySpendCap: 0.001 }),
      limitsWith({ requestsPerMinute: 0 }),
      limitsWith({ expiresAt: "Friday" }),
    ]) {
      const refused = await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: account.projectId, apiKeyName: "bad", limits: bad },
        { session: account.owner.session },
      );
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it("lets a key call only its features, answering 403 key-feature-not-allowed naming the feature", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(limitsWith({ endpoints: ["/v1/images/background-removal"] }));
    const allowed = await removeBackground(testApp, key.content);
    expect(allowed.statusCode, allowed.body).toBe(200);
    const before = modelCalls();
    const forbidden = await callFeature(testApp, key.content, GENERATE, [{ name: "prompt", value: "a cat" }]);
    expect(forbidden.statusCode, forbidden.body).toBe(403);
    expect(forbidden.json()).toMatchObject({
      error: "key-feature-not-allowed",
      message: keyFeatureNotAllowedText("Image Generation"),
    });
    expect((await callWithUnreadableBody(testApp, key.content, GENERATE)).json().error).toBe(
      "key-feature-not-allowed",
    );
    expect(modelCalls()).toBe(before);
    expect(await account.requestRows()).toHaveLength(1);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - PRICE);
  });

  it("answers 401 api-key-expired after the key's expiry, and the table marks it expired", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(
      limitsWith({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    );
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    await post(
      testApp,
      "/v1/users/api-keys/update",
      {
        projectId: account.projectId,
        apiKeyId: key.id,
        apiKeyName: "late",
        limits: limitsWith({ expiresAt: new Date(Date.now() - 1_000).toISOString() }),
      },
      { session: account.owner.session },
    );
    const expired = await removeBackground(testApp, key.content);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ error: "api-key-expired", message: API_KEY_EXPIRED });
    const unread = await callWithUnreadableBody(testApp, key.content, "/v1/images/background-removal");
    expect(unread.json().error).toBe("api-key-expired");
    const listed = await post(
      testApp,
      "/v1/users/api-keys/list",
      { projectId: account.projectId },
      { session: account.owner.session },
    );
    expect(listed.json().apiKeys[0]).toMatchObject({ expired: true, spendThisMonth: 0.01 });
    expect(await account.requestRows()).toHaveLength(1);
  });

  it("accepts calls only from the key's addresses and CIDR ranges, IPv4 and IPv6", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(
      limitsWith({ allowedIps: ["203.0.113.0/24", "2001:db8::/32", "198.51.100.9"] }),
    );
    for (const address of ["203.0.113.7", "2001:db8::1", "198.51.100.9", "::ffff:203.0.113.8"]) {
      const response = await removeBackground(testApp, key.content, { remoteAddress: address });
      expect(response.statusCode, `${address}: ${response.body}`).toBe(200);
    }
    for (const address of ["203.0.114.1", "198.51.100.10", "2001:db9::1", "127.0.0.1"]) {
      const response = await removeBackground(testApp, key.content, { remoteAddress: address });
      expect(response.statusCode, address).toBe(403);
      expect(response.json()).toMatchObject({ error: "ip-not-allowed", message: ipNotAllowedText(address) });
    }
    const unread = await callWithUnreadableBody(testApp, key.content, "/v1/images/background-removal", {
      remoteAddress: "192.0.2.1",
    });
    expect(unread.json().error).toBe("ip-not-allowed");
    // X-Forwarded-For is not believed without TRUST_PROXY.
    const spoofed = await removeBackground(testApp, key.content, {
      remoteAddress: "192.0.2.1",
      headers: { "x-forwarded-for": "203.0.113.7" },
    });
    expect(spoofed.statusCode).toBe(403);
    const rows = await account.requestRows();
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row.clientIp).sort()).toEqual(
      ["198.51.100.9", "2001:db8::1", "203.0.113.7", "::ffff:203.0.113.8"].sort(),
    );
  });

  it("takes the client address from X-Forwarded-For with TRUST_PROXY", async () => {
    const proxied = await createTestApp({ ...imageModelEnv(modelServer), TRUST_PROXY: "10.0.0.2" });
    try {
      const account = await fundedAccount(proxied, 1_000_000n);
      const key = await account.createKey(limitsWith({ allowedIps: ["203.0.113.0/24"] }));
      const through = await removeBackground(proxied, key.content, {
        remoteAddress: "10.0.0.2",
        headers: { "x-forwarded-for": "203.0.113.50" },
      });
      expect(through.statusCode, through.body).toBe(200);
      const refused = await removeBackground(proxied, key.content, {
        remoteAddress: "10.0.0.2",
        headers: { "x-forwarded-for": "192.0.2.50" },
      });
      expect(refused.json()).toMatchObject({
        error: "ip-not-allowed",
        message: ipNotAllowedText("192.0.2.50"),
      });
    } finally {
      await proxied.close();
    }
  });

  it("limits a key to its requests per minute with Retry-After and the RateLimit fields", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(limitsWith({ requestsPerMinute: 3 }));
    const unlimited = await account.createKey();
    for (let index = 0; index < 3; index += 1) {
      const response = await removeBackground(testApp, key.content);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["ratelimit-limit"]).toBe("3");
      expect(response.headers["ratelimit-remaining"]).toBe(String(2 - index));
      expect(Number(response.headers["ratelimit-reset"])).toBeGreaterThanOrEqual(1);
      expect(response.headers["ratelimit-policy"]).toBe('"default";q=3;w=60');
      expect(response.headers.ratelimit).toBe(
        `"default";r=${2 - index};t=${response.headers["ratelimit-reset"]}`,
      );
    }
    const limited = await callWithUnreadableBody(testApp, key.content, "/v1/images/background-removal");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("rate-limited");
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    expect(limited.headers["ratelimit-reset"]).toBe(String(retryAfter));
    expect(limited.headers.ratelimit).toBe(`"default";r=0;t=${retryAfter}`);
    expect(limited.json().message).toContain(`${retryAfter} seconds`);
    // The server-wide allowance of another key is its own.
    expect((await removeBackground(testApp, unlimited.content)).statusCode).toBe(200);
    expect(await account.requestRows()).toHaveLength(4);
  });

  it("refuses 50 concurrent calls beyond a monthly cap that covers 10: exactly 10 run", async () => {
    const account = await fundedAccount(testApp, 10_000_000n);
    const key = await account.createKey(limitsWith({ monthlySpendCap: 0.1 }));
    model.delayMs = 30;
    let responses: Awaited<ReturnType<typeof removeBackground>>[];
    try {
      responses = await Promise.all(Array.from({ length: 50 }, () => removeBackground(testApp, key.content)));
    } finally {
      model.delayMs = 0;
    }
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    for (const response of responses.filter((candidate) => candidate.statusCode === 402)) {
      expect(response.json()).toMatchObject({
        error: "key-spend-cap-reached",
        message: keySpendCapReachedText("monthly", 0.1),
      });
    }
    const rows = await account.requestRows();
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.status === "done")).toBe(true);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(10_000_000n - 10n * PRICE);
    // The next one is refused from its headers.
    const unread = await callWithUnreadableBody(testApp, key.content, "/v1/images/background-removal");
    expect(unread.json().error).toBe("key-spend-cap-reached");
    const details = await post(
      testApp,
      "/v1/users/api-keys/details",
      { projectId: account.projectId, apiKeyId: key.id },
      { session: account.owner.session },
    );
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json()).toMatchObject({ apiKey: { spendThisMonth: 0.1 }, spendLifetime: 0.1 });
    expect(details.json().recentCalls).toHaveLength(10);
    expect(details.json().recentCalls[0]).toMatchObject({
      endpoint: "/v1/images/background-removal",
      status: "done",
      cost: 0.01,
      clientIp: "127.0.0.1",
    });
  });

  it("stops a key at its lifetime cap, and a raised cap lets it go on", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(limitsWith({ lifetimeSpendCap: 0.02 }));
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    const capped = await removeBackground(testApp, key.content, { image: TINY_PNG });
    expect(capped.statusCode).toBe(402);
    expect(capped.json()).toMatchObject({
      error: "key-spend-cap-reached",
      message: keySpendCapReachedText("lifetime", 0.02),
    });
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - 2n * PRICE);
    await post(
      testApp,
      "/v1/users/api-keys/update",
      {
        projectId: account.projectId,
        apiKeyId: key.id,
        apiKeyName: "more",
        limits: limitsWith({ lifetimeSpendCap: 0.03 }),
      },
      { session: account.owner.session },
    );
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
  });

  it("gives a failed call's price back to the key's cap with its refund", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey(limitsWith({ monthlySpendCap: 0.02, lifetimeSpendCap: 0.02 }));
    model.fail = true;
    try {
      const failed = await removeBackground(testApp, key.content);
      expect(failed.statusCode).toBe(502);
    } finally {
      model.fail = false;
    }
    const [afterRefund] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(afterRefund).toMatchObject({ spentMonthMicros: 0n, spentLifetimeMicros: 0n });
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(402);
    const [capped] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(capped).toMatchObject({ spentMonthMicros: 2n * PRICE, spentLifetimeMicros: 2n * PRICE });
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - 2n * PRICE);
  });

  it("counts what a key spent before it had a cap when a cap is set later", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    await post(
      testApp,
      "/v1/users/api-keys/update",
      {
        projectId: account.projectId,
        apiKeyId: key.id,
        apiKeyName: "capped later",
        limits: limitsWith({ lifetimeSpendCap: 0.03 }),
      },
      { session: account.owner.session },
    );
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    const refused = await removeBackground(testApp, key.content);
    expect(refused.json()).toMatchObject({
      error: "key-spend-cap-reached",
      message: keySpendCapReachedText("lifetime", 0.03),
    });
  });
});

import { microsToUsd } from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  limitsWith,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { apiKeys, featureRequests, usageDailyKeys } from "../../db/schema";

/**
 * A key's spend (issue 35, decision 022) is read from its daily rollup plus its calls in flight, and a
 * call belongs to the UTC month it was made in, for the list, the details and the caps alike: what they
 * show is what the key's calls cost, counted from the request log.
 */

const PRICE = 10_000n; // Background removal, in micro-dollars.

describe("a key's spend", () => {
  const model: { delayMs: number; fail?: boolean } = { delayMs: 0 };
  let modelServer: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    modelServer = await startImageModelServer(model);
    testApp = await createTestApp({ ...imageModelEnv(modelServer), ORGANIZATION_QUEUED_CALLS: "0" });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  /** Starts a slow call and answers once its row is running, with the call's response to await. */
  async function startRunningCall(apiKey: string, keyId: string, delayMs: number) {
    model.delayMs = delayMs;
    const response = removeBackground(testApp, apiKey);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [running] = await testApp.database.db
        .select({ id: featureRequests.id })
        .from(featureRequests)
        .where(and(eq(featureRequests.apiKeyId, keyId), eq(featureRequests.status, "generating")));
      if (running) return { id: running.id, response };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("the call never ran");
  }

  /** The key's calls' prices counted from the request log: calls that were not refunded. */
  async function spentFromRequestLog(keyId: string) {
    const [sums] = await testApp.database.db
      .select({
        month: sql<string>`coalesce(sum(${featureRequests.priceMicros})
          filter (where ${featureRequests.createdAt} >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'), 0)`,
        lifetime: sql<string>`coalesce(sum(${featureRequests.priceMicros}), 0)`,
      })
      .from(featureRequests)
      .where(
        and(eq(featureRequests.apiKeyId, keyId), sql`${featureRequests.status} not in ('error', 'canceled')`),
      );
    return { month: BigInt(sums?.month ?? 0), lifetime: BigInt(sums?.lifetime ?? 0) };
  }

  it("equals the sum of its calls, with one running and one made last month", async () => {
    const account = await fundedAccount(testApp, 10_000_000n);
    const key = await account.createKey(undefined, "spender");
    const session = { session: account.owner.session };
    const listSpend = async () => {
      const listed = await post(
        testApp,
        "/v1/users/api-keys/list",
        { projectId: account.projectId },
        session,
      );
      expect(listed.statusCode, listed.body).toBe(200);
      return listed.json().apiKeys.find((listedKey: { id: string }) => listedKey.id === key.id)
        .spendThisMonth;
    };
    const details = async () => {
      const response = await post(
        testApp,
        "/v1/users/api-keys/details",
        { projectId: account.projectId, apiKeyId: key.id },
        session,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    // Two calls this month, and a failed one (refunded: it costs nothing).
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    model.fail = true;
    try {
      expect((await removeBackground(testApp, key.content)).statusCode).toBe(502);
    } finally {
      model.fail = false;
    }

    // A call made in the last second of last month that settles this month: it belongs to last month.
    const lastMonth = await startRunningCall(key.content, key.id, 300);
    await testApp.database.db
      .update(featureRequests)
      .set({
        createdAt: sql`date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - interval '1 second'`,
      })
      .where(eq(featureRequests.id, lastMonth.id));
    expect((await lastMonth.response).statusCode).toBe(200);
    const rollup = await testApp.database.db
      .select({ day: usageDailyKeys.day, calls: usageDailyKeys.calls, cost: usageDailyKeys.costMicros })
      .from(usageDailyKeys)
      .where(eq(usageDailyKeys.apiKeyId, key.id))
      .orderBy(usageDailyKeys.day);
    const today = new Date();
    const lastDayOfLastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
    // Settled on this month's day, counted on the day it was made, as its key's monthly cap charged it.
    expect(rollup[0]).toEqual({ day: lastDayOfLastMonth.toISOString().slice(0, 10), calls: 1, cost: PRICE });
    expect(rollup.reduce((calls, row) => calls + row.calls, 0)).toBe(3);

    // And one still running while the spend is read.
    const running = await startRunningCall(key.content, key.id, 1_500);
    try {
      const expected = await spentFromRequestLog(key.id);
      expect(expected).toEqual({ month: 3n * PRICE, lifetime: 4n * PRICE });
      expect(await listSpend()).toBe(microsToUsd(expected.month));
      expect(await details()).toMatchObject({
        apiKey: { spendThisMonth: microsToUsd(expected.month) },
        spendLifetime: microsToUsd(expected.lifetime),
      });

      // Caps set now start from the same figures: the counters the gateway checks agree with the view.
      const saved = await post(
        testApp,
        "/v1/users/api-keys/update",
        {
          projectId: account.projectId,
          apiKeyId: key.id,
          apiKeyName: "spender",
          limits: limitsWith({ monthlySpendCap: 1, lifetimeSpendCap: 2 }),
        },
        session,
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const [counters] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
      expect(counters).toMatchObject({
        spentMonthMicros: expected.month,
        spentLifetimeMicros: expected.lifetime,
      });
    } finally {
      model.delayMs = 0;
    }
    expect((await running.response).statusCode).toBe(200);

    // Settled, the running call moved from the open calls to the rollup: the figures do not change.
    const settled = await spentFromRequestLog(key.id);
    expect(settled).toEqual({ month: 3n * PRICE, lifetime: 4n * PRICE });
    expect(await listSpend()).toBe(microsToUsd(settled.month));
    expect(await details()).toMatchObject({
      apiKey: { spendThisMonth: microsToUsd(settled.month) },
      spendLifetime: microsToUsd(settled.lifetime),
    });
  });
});

import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUDGET_REACHED } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * The monthly budget's hard stop attacked through HTTP: calls fired together must not all slip in
 * under a budget that only settled calls count.
 */
describe("budget hard stop under concurrency", () => {
  const model: { delayMs: number } = { delayMs: 0 };
  let modelServer: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    modelServer = await startImageModelServer(model);
    const pricesFile = join(tmpdir(), `prism-prices-budget-${process.pid}-${Date.now()}.json`);
    writeFileSync(pricesFile, JSON.stringify({ "image-background-removal": { price: 0.02 } }));
    // No organization-wide concurrency limit, so only the budget decides which calls run.
    testApp = await createTestApp({
      ...imageModelEnv(modelServer),
      PRICES_FILE: pricesFile,
      ORGANIZATION_CONCURRENT_CALLS: "0",
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("lets exactly 5 of 10 concurrent $0.02 calls through a $0.10 hard budget and charges none of the rest", async () => {
    const funds = 10_000_000n;
    const account = await fundedAccount(testApp, funds);
    const apiKey = (await account.createKey()).content;
    const alerts = await post(
      testApp,
      "/v1/payments/update-alerts",
      { organizationId: account.organizationId, lowBalance: null, monthlyBudget: 0.1, budgetHardStop: true },
      { session: account.owner.session },
    );
    expect(alerts.statusCode, alerts.body).toBe(200);

    // The model holds every call long enough for all ten reservations to be made while none has settled.
    model.delayMs = 300;
    let responses: Awaited<ReturnType<typeof removeBackground>>[];
    try {
      responses = await Promise.all(Array.from({ length: 10 }, () => removeBackground(testApp, apiKey)));
    } finally {
      model.delayMs = 0;
    }
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    const refused = responses.filter((response) => response.statusCode !== 200);
    expect(refused).toHaveLength(5);
    for (const response of refused) {
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({ error: "budget-reached", message: BUDGET_REACHED });
    }
    const rows = await account.requestRows();
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.status === "done")).toBe(true);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(funds - 5n * 20_000n);

    // The budget is spent: the next call is refused too.
    const after = await removeBackground(testApp, apiKey);
    expect(after.statusCode).toBe(402);
    expect(after.json().error).toBe("budget-reached");
  });
});

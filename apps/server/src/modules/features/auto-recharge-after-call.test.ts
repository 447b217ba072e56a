import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { payments } from "../../db/schema";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * A feature call looks at the organization's auto recharge only when its settlement leaves the balance
 * below the threshold (the settle statement says so), instead of after every call: the call that
 * crosses the threshold still recharges, once, and the calls on either side of it do not.
 */
describe("auto recharge after feature calls", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    modelServer = await startImageModelServer();
    const pricesFile = join(tmpdir(), `prism-prices-recharge-${process.pid}-${Date.now()}.json`);
    writeFileSync(pricesFile, JSON.stringify({ "image-background-removal": { price: 1 } }));
    testApp = await createTestApp({ ...imageModelEnv(modelServer), PRICES_FILE: pricesFile });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("recharges once, after the call that takes the balance below the threshold", async () => {
    const account = await fundedAccount(testApp, 21_500_000n);
    const { organizationId } = account;
    const session = account.owner.session;
    await addSandboxCard(testApp, session, organizationId);
    const enabled = await post(
      testApp,
      "/v1/payments/update-auto-recharge",
      { organizationId, enabled: true, threshold: 20, amount: 50 },
      { session },
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    const apiKey = (await account.createKey()).content;
    const db = testApp.database.db;
    const autoPayments = async () =>
      (await db.select().from(payments).where(eq(payments.organizationId, organizationId))).filter(
        (payment) => payment.kind === "auto",
      );
    const settledBalance = async (expected: bigint) => {
      // The recharge is not awaited by the call's answer.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        if ((await cachedBalance(db, organizationId)) === expected) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await cachedBalance(db, organizationId)).toBe(expected);
    };

    // 21.50 → 20.50: still above the threshold.
    const first = await removeBackground(testApp, apiKey);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().balance).toBe(20.5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await autoPayments()).toHaveLength(0);

    // 20.50 → 19.50: below it, so 50 are added.
    const second = await removeBackground(testApp, apiKey);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().balance).toBe(19.5);
    await settledBalance(69_500_000n);
    expect(await autoPayments()).toHaveLength(1);

    // 69.50 → 68.50: above it again, nothing more.
    const third = await removeBackground(testApp, apiKey);
    expect(third.statusCode, third.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await autoPayments()).toHaveLength(1);
    expect(await cachedBalance(db, organizationId)).toBe(68_500_000n);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { cachedBalance, credit, ledgerBalance, refund, reserve, settle } from "./ledger.service";

const DOLLAR = 1_000_000n;

describe("the ledger", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function fundedOrganization(dollars: bigint): Promise<string> {
    const { userInfo } = await signUpAndConfirm(testApp);
    const organizationId = userInfo.organizations[0].id as string;
    if (dollars > 0n) {
      await testApp.database.db.transaction((tx) =>
        credit(tx, { organizationId, amountMicros: dollars * DOLLAR, reference: `seed-${organizationId}` }),
      );
    }
    return organizationId;
  }

  async function expectConsistent(organizationId: string) {
    const db = testApp.database.db;
    expect(await cachedBalance(db, organizationId)).toBe(await ledgerBalance(db, organizationId));
  }

  it("reserves, settles and refunds, keeping the cached balance equal to the ledger sum", async () => {
    const db = testApp.database.db;
    const organizationId = await fundedOrganization(10n);
    const first = await reserve(db, { organizationId, amountMicros: 3n * DOLLAR, reference: "call-1" });
    expect(first).toEqual({ reserved: true, balanceMicros: 7n * DOLLAR });
    await expectConsistent(organizationId);

    expect(await settle(db, "call-1")).toBe(true);
    expect(await refund(db, "call-1")).toBe(false);
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);

    await reserve(db, { organizationId, amountMicros: 2n * DOLLAR, reference: "call-2" });
    expect(await refund(db, "call-2")).toBe(true);
    expect(await refund(db, "call-2")).toBe(false);
    expect(await settle(db, "call-2")).toBe(false);
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);
    await expectConsistent(organizationId);

    const short = await reserve(db, { organizationId, amountMicros: 8n * DOLLAR, reference: "call-3" });
    expect(short).toEqual({ reserved: false, reason: "insufficient-balance" });
    const duplicate = await reserve(db, { organizationId, amountMicros: DOLLAR, reference: "call-1" });
    expect(duplicate).toEqual({ reserved: false, reason: "duplicate" });
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);
    await expectConsistent(organizationId);
  });

  it("credits the same payment once", async () => {
    const db = testApp.database.db;
    const organizationId = await fundedOrganization(0n);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        db.transaction((tx) =>
          credit(tx, { organizationId, amountMicros: 25n * DOLLAR, reference: "payment:dup" }),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await cachedBalance(db, organizationId)).toBe(25n * DOLLAR);
    await expectConsistent(organizationId);
  });

  it("lets exactly 50 of 200 concurrent reservations through a balance that covers 50", async () => {
    const db = testApp.database.db;
    const organizationId = await fundedOrganization(50n);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        reserve(db, {
          organizationId,
          amountMicros: DOLLAR,
          reference: `concurrent-${organizationId}-${index}`,
        }),
      ),
    );
    expect(results.filter((result) => result.reserved)).toHaveLength(50);
    expect(results.every((result) => !result.reserved || result.balanceMicros >= 0n)).toBe(true);
    expect(await cachedBalance(db, organizationId)).toBe(0n);
    await expectConsistent(organizationId);
  });
});

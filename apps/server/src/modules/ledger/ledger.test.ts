import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAndConfirm } from "../../../test/accounts";
import { chargeCall, reserveForCall } from "../../../test/call-charges";
import { sqlStateOf } from "../../../test/sql-state";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { ledgerEntries } from "../../db/schema";
import { failCall } from "../features/call-failure";
import { cachedBalance, credit, ledgerBalance } from "./ledger.service";
import { appendCallEntry } from "./ledger.store";

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

  it("reserves, settles and refunds a call once each, keeping the cached balance equal to the ledger sum", async () => {
    const db = testApp.database.db;
    const organizationId = await fundedOrganization(10n);
    await chargeCall(db, { organizationId, amountMicros: 3n * DOLLAR });
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);
    await expectConsistent(organizationId);

    const second = await reserveForCall(db, { organizationId, amountMicros: 2n * DOLLAR });
    expect(second).toMatchObject({ reserved: true, balanceMicros: 5n * DOLLAR });
    const failure = { code: "feature-failed" as const, reason: "test" };
    expect(await failCall(db, second.requestId, failure, { releaseSlot: true })).toBe(true);
    expect(await failCall(db, second.requestId, failure, { releaseSlot: true })).toBe(false);
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);
    await expectConsistent(organizationId);

    const short = await reserveForCall(db, { organizationId, amountMicros: 8n * DOLLAR });
    expect(short).toEqual({ reserved: false, refusal: "insufficient-balance", requestId: short.requestId });
    // The same call (its ledger reference) cannot be reserved twice.
    await expect(
      reserveForCall(db, { organizationId, amountMicros: DOLLAR, requestId: second.requestId }),
    ).rejects.toThrow();
    expect(await cachedBalance(db, organizationId)).toBe(7n * DOLLAR);
    await expectConsistent(organizationId);
  });

  it("refuses in the database a second reservation, settlement or refund of the same call", async () => {
    const db = testApp.database.db;
    const organizationId = await fundedOrganization(10n);
    const settled = await chargeCall(db, { organizationId, amountMicros: DOLLAR });
    const failed = await reserveForCall(db, { organizationId, amountMicros: DOLLAR });
    const failure = { code: "feature-failed" as const, reason: "test" };
    expect(await failCall(db, failed.requestId, failure, { releaseSlot: true })).toBe(true);

    // The ledger's own path answers "already there"...
    expect(
      await appendCallEntry(db, { organizationId, kind: "settlement", amountMicros: 0n, requestId: settled }),
    ).toBe(false);
    expect(
      await appendCallEntry(db, {
        organizationId,
        kind: "refund",
        amountMicros: DOLLAR,
        requestId: failed.requestId,
      }),
    ).toBe(false);
    // ...and a plain insert, which no code path makes, is refused by the unique index or the check.
    const insert = (entry: typeof ledgerEntries.$inferInsert) =>
      sqlStateOf(db.insert(ledgerEntries).values(entry));
    const call = { organizationId, amountMicros: DOLLAR };
    expect(await insert({ ...call, kind: "reservation", requestId: settled })).toBe("23505");
    expect(await insert({ ...call, kind: "settlement", requestId: settled })).toBe("23505");
    expect(await insert({ ...call, kind: "refund", requestId: failed.requestId })).toBe("23505");
    // A call's entry cannot slip past its unique index under a text reference, nor carry both.
    expect(await insert({ ...call, kind: "refund", reference: `request:${failed.requestId}` })).toBe("23514");
    expect(
      await insert({ ...call, kind: "refund", requestId: settled, reference: `request:${settled}` }),
    ).toBe("23514");
    // A payment's entry needs its reference, and has it once.
    expect(await insert({ ...call, kind: "credit" })).toBe("23514");
    expect(await insert({ ...call, kind: "credit", reference: `seed-${organizationId}` })).toBe("23505");

    expect(await cachedBalance(db, organizationId)).toBe(9n * DOLLAR);
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
      Array.from({ length: 200 }, () => reserveForCall(db, { organizationId, amountMicros: DOLLAR })),
    );
    expect(results.filter((result) => result.reserved)).toHaveLength(50);
    expect(results.every((result) => !result.reserved || result.balanceMicros >= 0n)).toBe(true);
    expect(await cachedBalance(db, organizationId)).toBe(0n);
    await expectConsistent(organizationId);
  });
});

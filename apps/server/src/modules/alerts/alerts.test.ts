import { BUDGET_REACHED, emptyPermissions } from "@prism/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizationEvents } from "../../db/schema";
import { alertMessageId } from "../events/events.service";
import { credit } from "../ledger/ledger.service";

/**
 * The Payments page's alerts through HTTP: a low balance alerts once per crossing below the threshold,
 * the monthly budget at 50, 80 and 100 %, with a hard stop that answers 402 until the budget is
 * raised; mails go to the owner and the members with payments rights, from the job queue.
 */
describe("alerts", () => {
  let testApp: TestApp;
  let model: LocalServer;

  const setup = async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const payer = await addMember(
      testApp,
      account.owner.session,
      account.organizationId,
      permissionsWith(["organization.payments"]),
    );
    const bystander = await addMember(
      testApp,
      account.owner.session,
      account.organizationId,
      emptyPermissions([]),
    );
    const apiKey = (await account.createKey()).content;
    const callOnce = () => removeBackground(testApp, apiKey);
    const setAlerts = (alerts: {
      lowBalance: number | null;
      monthlyBudget: number | null;
      budgetHardStop: boolean;
    }) =>
      post(
        testApp,
        "/v1/payments/update-alerts",
        { organizationId: account.organizationId, ...alerts },
        { session: account.owner.session },
      );
    const events = async (type: string) =>
      (
        await testApp.database.db
          .select()
          .from(organizationEvents)
          .where(
            and(
              eq(organizationEvents.organizationId, account.organizationId),
              eq(organizationEvents.type, type),
            ),
          )
          .orderBy(organizationEvents.createdAt)
      ).map((row) => (row.payload as { data: Record<string, unknown> }).data);
    const mailsTo = async (email: string, subjectPart: string) => {
      await testApp.app.jobWorker.drain();
      return (await testApp.deps.outbox.list()).filter(
        (mail) => mail.to === email && mail.subject.includes(subjectPart),
      );
    };
    return { account, payer, bystander, callOnce, setAlerts, events, mailsTo };
  };

  beforeAll(async () => {
    model = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(model));
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
  });

  it("mails the owner and payments members once per crossing below the low-balance threshold", async () => {
    const { account, payer, bystander, callOnce, setAlerts, events, mailsTo } = await setup();
    const first = await callOnce();
    expect(first.statusCode, first.body).toBe(200);
    const cost: number = first.json().cost;
    const balance: number = first.json().balance;
    // Above after the next call, below after the one after it.
    const saved = await setAlerts({
      lowBalance: balance - 1.5 * cost,
      monthlyBudget: null,
      budgetHardStop: false,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    expect((await callOnce()).statusCode).toBe(200);
    expect(await events("balance.low")).toHaveLength(0);
    expect((await callOnce()).statusCode).toBe(200);
    expect((await callOnce()).statusCode).toBe(200);
    expect(await events("balance.low")).toHaveLength(1);
    const [ownerMail] = await mailsTo(account.owner.email, "Low balance");
    expect(await mailsTo(payer.email, "Low balance")).toHaveLength(1);
    expect(await mailsTo(bystander.email, "Low balance")).toHaveLength(0);
    // A resend after a crash carries the same Message-ID, which mail services show once.
    const [lowBalanceEvent] = await testApp.database.db
      .select({ id: organizationEvents.id })
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, account.organizationId),
          eq(organizationEvents.type, "balance.low"),
        ),
      );
    expect(ownerMail?.messageId).toBe(alertMessageId(lowBalanceEvent?.id ?? "", account.owner.userInfo.id));

    // Back above (a recharge), then below again: a new crossing, a new alert.
    await testApp.database.db.transaction((tx) =>
      credit(tx, {
        organizationId: account.organizationId,
        amountMicros: 100_000n,
        reference: `top-up-${account.organizationId}`,
      }),
    );
    for (let calls = 0; calls < 10 && (await events("balance.low")).length < 2; calls += 1) {
      expect((await callOnce()).statusCode).toBe(200);
    }
    expect(await events("balance.low")).toHaveLength(2);
    expect((await callOnce()).statusCode).toBe(200);
    expect(await events("balance.low")).toHaveLength(2);
    expect(await mailsTo(account.owner.email, "Low balance")).toHaveLength(2);
  });

  it("alerts at 50, 80 and 100 % of the monthly budget and hard-stops at 100 % until it is raised", async () => {
    const { account, payer, callOnce, setAlerts, events, mailsTo } = await setup();
    const first = await callOnce();
    const cost: number = first.json().cost;
    // Five calls make the budget: the third crosses 50 %, the fourth 80 %, the fifth 100 %.
    expect(
      (await setAlerts({ lowBalance: null, monthlyBudget: 5 * cost, budgetHardStop: true })).statusCode,
    ).toBe(200);
    for (let call = 2; call <= 5; call += 1) expect((await callOnce()).statusCode).toBe(200);
    expect((await events("budget.threshold")).map((data) => data.percent)).toEqual([50, 80, 100]);

    const refused = await callOnce();
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: "budget-reached", message: BUDGET_REACHED });
    const alerts = await post(
      testApp,
      "/v1/payments/get-alerts",
      { organizationId: account.organizationId },
      { session: account.owner.session },
    );
    expect(alerts.json()).toMatchObject({ monthlyBudget: 5 * cost, budgetHardStop: true });
    expect(alerts.json().monthSpend).toBeCloseTo(5 * cost, 6);

    expect(await mailsTo(account.owner.email, "of its monthly budget")).toHaveLength(3);
    expect(await mailsTo(payer.email, "of its monthly budget")).toHaveLength(3);

    expect(
      (await setAlerts({ lowBalance: null, monthlyBudget: 10 * cost, budgetHardStop: true })).statusCode,
    ).toBe(200);
    expect((await callOnce()).statusCode).toBe(200);
  });

  it("keeps calls going at 100 % when the hard stop is off", async () => {
    const { callOnce, setAlerts, events } = await setup();
    const cost: number = (await callOnce()).json().cost;
    await setAlerts({ lowBalance: null, monthlyBudget: cost, budgetHardStop: false });
    expect((await callOnce()).statusCode).toBe(200);
    expect((await callOnce()).statusCode).toBe(200);
    // The first call after saving takes the month from 0 % to 200 %: every share is reported, once.
    expect((await events("budget.threshold")).map((data) => data.percent)).toEqual([50, 80, 100]);
  });

  it("reports every share one call jumps past, each with its own event and mail, once", async () => {
    const { account, payer, bystander, callOnce, setAlerts, events, mailsTo } = await setup();
    const cost: number = (await callOnce()).json().cost;
    // The month holds one call (44 % of the budget); the next makes it 89 %: past 50 and 80 at once.
    expect(
      (await setAlerts({ lowBalance: null, monthlyBudget: 2.25 * cost, budgetHardStop: false })).statusCode,
    ).toBe(200);
    expect((await callOnce()).statusCode).toBe(200);
    const jumped = await events("budget.threshold");
    expect(jumped.map((data) => data.percent)).toEqual([50, 80]);
    expect(jumped[0]).toMatchObject({ organization_id: account.organizationId, budget: 2.25 * cost });
    expect(jumped[0]?.spend).toBeCloseTo(2 * cost, 6);
    for (const email of [account.owner.email, payer.email]) {
      const mails = await mailsTo(email, "of its monthly budget");
      // The outbox lists the newest first; the order of sending is not the point.
      expect(mails.map((mail) => mail.subject.match(/reached (\d+)%/)?.[1]).sort()).toEqual(["50", "80"]);
    }
    expect(await mailsTo(bystander.email, "of its monthly budget")).toHaveLength(0);

    // The next call reaches 100 %: that share alone is new. Later calls report nothing again.
    expect((await callOnce()).statusCode).toBe(200);
    expect((await callOnce()).statusCode).toBe(200);
    expect((await events("budget.threshold")).map((data) => data.percent)).toEqual([50, 80, 100]);
    for (const email of [account.owner.email, payer.email]) {
      const mails = await mailsTo(email, "of its monthly budget");
      expect(mails.map((mail) => mail.subject.match(/reached (\d+)%/)?.[1]).sort()).toEqual([
        "100",
        "50",
        "80",
      ]);
    }
  });
});

import {
  CARD_EXPIRED,
  CARD_NUMBER_INVALID,
  CARD_SECURITY_CODE_INVALID,
  emptyPermissions,
  PAYMENT_METHOD_REQUIRED,
  REQUIRED_FIELDS_MISSING,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { chargeCall } from "../../../test/call-charges";
import { addMember, permissionsWith } from "../../../test/members";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizationEvents, payments, sandboxSetupIntents } from "../../db/schema";
import { cachedBalance, ledgerBalance } from "../ledger/ledger.service";
import { moneyDeps } from "./payments.routes";
import { creditSucceededPayment, triggerAutoRechargeIfNeeded } from "./recharge.service";

describe("payments (sandbox provider)", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function owner() {
    const account = await signUpAndConfirm(testApp);
    return { ...account, organizationId: account.userInfo.organizations[0].id as string };
  }

  it("saves the 4242 card (display details only) and reports it with the default auto recharge", async () => {
    const { session, organizationId } = await owner();
    const before = (
      await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })
    ).json();
    expect(before).toEqual({ payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } });

    await addSandboxCard(testApp, session, organizationId);
    const info = (
      await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })
    ).json();
    expect(info.payment).toEqual({
      brand: "visa",
      funding: "credit",
      last4: "4242",
      country: "US",
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
    });
    const stored = JSON.stringify(await testApp.database.db.select().from(sandboxSetupIntents));
    expect(stored).not.toContain("4242424242424242");

    await addSandboxCard(testApp, session, organizationId, "5555555555554444");
    const replaced = (
      await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })
    ).json();
    expect(replaced.payment).toMatchObject({ brand: "mastercard", last4: "4444" });

    expect(
      (await post(testApp, "/v1/payments/delete-payment", { organizationId }, { session })).statusCode,
    ).toBe(200);
    expect(
      (await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })).json().payment,
    ).toEqual({});
  });

  it("recognises the brands of Stripe's test cards", async () => {
    const { session, organizationId } = await owner();
    for (const [number, brand] of [
      ["378282246310005", "american express"],
      ["6011111111111117", "discover"],
    ] as const) {
      await addSandboxCard(testApp, session, organizationId, number);
      const info = (
        await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })
      ).json();
      expect(info.payment.brand).toBe(brand);
    }
  });

  it("declines 4000000000000002 at setup and refuses a number failing Luhn", async () => {
    const { session, organizationId } = await owner();
    const declined = await addSandboxCard(testApp, session, organizationId, "4000000000000002");
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ error: "card-declined", message: "Your card was declined." });
    const invalid = await addSandboxCard(testApp, session, organizationId, "4242424242424241");
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      error: "invalid-input",
      field: "number",
      message: CARD_NUMBER_INVALID,
    });
    expect(
      (await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })).json().payment,
    ).toEqual({});
  });

  it("names the card field of a refused sandbox card: a wrong length, an expired month, a short security code", async () => {
    const { session, organizationId } = await owner();
    const confirm = async (card: Record<string, unknown>) => {
      const started = await post(
        testApp,
        "/v1/payments/start-setup-payment",
        { organizationId },
        { session },
      );
      return post(testApp, "/v1/payments/sandbox/confirm-setup", {
        clientSecret: started.json().clientSecret,
        number: "4242424242424242",
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvc: "123",
        ...card,
      });
    };
    // A 13-digit Visa passes Luhn's checksum but not the network's length, as in the card form.
    const shortVisa = await confirm({ number: "4222222222222" });
    expect(shortVisa.statusCode).toBe(400);
    expect(shortVisa.json()).toMatchObject({
      error: "invalid-input",
      field: "number",
      message: CARD_NUMBER_INVALID,
    });
    const expired = await confirm({ expMonth: 1, expYear: 2020 });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ field: "expMonth", message: CARD_EXPIRED });
    const shortCode = await confirm({ number: "378282246310005", cvc: "123" });
    expect(shortCode.statusCode).toBe(400);
    expect(shortCode.json()).toMatchObject({ field: "cvc", message: CARD_SECURITY_CODE_INVALID });
    const lettersInCode = await confirm({ cvc: "12a" });
    expect(lettersInCode.json()).toMatchObject({
      field: "cvc",
      message: `cvc: ${CARD_SECURITY_CODE_INVALID}`,
    });
  });

  it("recharges: balance credited once, isNew cleared, one invoice with a PDF", async () => {
    const { session, organizationId } = await owner();
    const noCard = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 100 },
      { session },
    );
    expect(noCard.statusCode).toBe(402);
    expect(noCard.json()).toMatchObject({
      error: "payment-method-required",
      message: "Please add a Payment Method first",
    });

    await addSandboxCard(testApp, session, organizationId);
    const tooSmall = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 10 },
      { session },
    );
    expect(tooSmall.statusCode).toBe(400);

    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 100 },
      { session },
    );
    expect(recharged.statusCode).toBe(200);
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    expect(me.organizations[0]).toMatchObject({ balance: 100, properties: { isNew: false } });
    expect(await ledgerBalance(testApp.database.db, organizationId)).toBe(100_000_000n);

    const listed = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session })
    ).json();
    expect(listed).toMatchObject({ totalPages: 1, currentPage: 1 });
    expect(listed.invoices).toEqual([
      {
        id: expect.any(String),
        invoiceId: expect.stringMatching(/^INV-\d{6}$/),
        amount: 100,
        createdAt: expect.any(String),
      },
    ]);
    const link = (
      await post(
        testApp,
        "/v1/users/invoices/retrieve-link",
        { invoiceId: listed.invoices[0].invoiceId },
        { session },
      )
    ).json().url as string;
    const pdf = await testApp.app.inject({ method: "GET", url: link });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const forged = await testApp.app.inject({ method: "GET", url: link.replace(/token=.*/, "token=forged") });
    expect(forged.statusCode).toBe(404);
  });

  it("mails a receipt of each credited payment, once, to those who manage payments and to the billing email", async () => {
    const account = await owner();
    const { session, organizationId } = account;
    const billingEmail = uniqueEmail("accounts-payable");
    const billed = await post(
      testApp,
      "/v1/users/organizations/update-billing",
      {
        organizationId,
        billingName: "Acme GmbH",
        billingEmail,
        taxId: null,
        address: "Hauptstr. 1",
        city: "Berlin",
        state: "Berlin",
        zipCode: "10115",
        country: "Germany",
      },
      { session },
    );
    expect(billed.statusCode).toBe(200);
    // A member who may not see payments gets no receipt.
    const bystander = await addMember(
      testApp,
      session,
      organizationId,
      permissionsWith(["organization.billing"]),
    );
    await addSandboxCard(testApp, session, organizationId);

    const receiptsTo = async (email: string) => {
      await testApp.app.jobWorker.drain();
      return (await testApp.deps.outbox.list()).filter(
        (mail) => mail.to === email && mail.subject.startsWith("Receipt:"),
      );
    };
    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 120.5 },
      { session },
    );
    expect(recharged.statusCode).toBe(200);
    const [invoice] = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session })
    ).json().invoices;

    const [receipt] = await receiptsTo(account.email);
    expect(receipt?.subject).toBe(
      `Receipt: $120.50 added to ${account.userInfo.organizations[0].name} on Prism`,
    );
    expect(receipt?.text).toContain("Amount: $120.50");
    expect(receipt?.text).toContain("Paid with: Visa ending in 4242");
    expect(receipt?.text).toContain(`Invoice: ${invoice.invoiceId}`);
    expect(receipt?.text).toContain("New balance: $120.50");
    const invoicesPage = `${testApp.deps.config.appOrigin}/organization/invoices`;
    expect(receipt?.text).toContain(`Invoice ${invoice.invoiceId} is on the Invoices page: ${invoicesPage}`);
    expect(receipt?.html).toContain(`href="${invoicesPage}"`);
    expect(await receiptsTo(billingEmail)).toHaveLength(1);
    expect(await receiptsTo(bystander.email)).toHaveLength(0);

    // Crediting the same payment again (a replayed confirmation) sends nothing more; a new payment does.
    const [paymentRow] = await testApp.database.db
      .select()
      .from(payments)
      .where(eq(payments.organizationId, organizationId));
    expect(await creditSucceededPayment(moneyDeps(testApp.deps), { paymentId: paymentRow!.id })).toBe(false);
    expect(await receiptsTo(account.email)).toHaveLength(1);
    await post(testApp, "/v1/payments/recharge-account", { organizationId, amount: 20 }, { session });
    expect((await receiptsTo(account.email)).map((mail) => mail.subject)).toEqual([
      `Receipt: $20.00 added to ${account.userInfo.organizations[0].name} on Prism`,
      `Receipt: $120.50 added to ${account.userInfo.organizations[0].name} on Prism`,
    ]);
    expect(await receiptsTo(billingEmail)).toHaveLength(2);
  });

  it("refuses a recharge on the card that fails every charge, crediting nothing", async () => {
    const { session, organizationId } = await owner();
    await addSandboxCard(testApp, session, organizationId, "4000000000009995");
    const failed = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 50 },
      { session },
    );
    expect(failed.statusCode).toBe(402);
    expect(failed.json()).toMatchObject({
      error: "payment-failed",
      message: "Your card has insufficient funds.",
    });
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(0n);
    const rows = await testApp.database.db
      .select()
      .from(payments)
      .where(eq(payments.organizationId, organizationId));
    expect(rows.map((row) => row.status)).toEqual(["failed"]);
    const invoices = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session })
    ).json();
    expect(invoices).toEqual({ invoices: [], totalPages: 0, currentPage: 1 });
  });

  it("pages invoices ten at a time, newest first", async () => {
    const { session, organizationId } = await owner();
    await addSandboxCard(testApp, session, organizationId);
    for (let index = 0; index < 12; index += 1) {
      await post(
        testApp,
        "/v1/payments/recharge-account",
        { organizationId, amount: 20 + index },
        { session },
      );
    }
    const first = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session })
    ).json();
    expect(first.totalPages).toBe(2);
    expect(first.invoices).toHaveLength(10);
    expect(first.invoices[0].amount).toBe(31);
    const second = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 2 }, { session })
    ).json();
    expect(second.invoices.map((invoice: { amount: number }) => invoice.amount)).toEqual([21, 20]);
  });

  describe("auto recharge", () => {
    it("validates the 20 dollar minimum while enabled", async () => {
      const { session, organizationId } = await owner();
      const low = await post(
        testApp,
        "/v1/payments/update-auto-recharge",
        { organizationId, enabled: true, threshold: 5, amount: 50 },
        { session },
      );
      expect(low.statusCode).toBe(400);
      const off = await post(
        testApp,
        "/v1/payments/update-auto-recharge",
        { organizationId, enabled: false, threshold: 0, amount: 0 },
        { session },
      );
      expect(off.statusCode).toBe(200);
    });

    it("recharges exactly once for one crossing, even when many charges cross it at once", async () => {
      const { session, organizationId } = await owner();
      await addSandboxCard(testApp, session, organizationId);
      await post(testApp, "/v1/payments/recharge-account", { organizationId, amount: 30 }, { session });
      await post(
        testApp,
        "/v1/payments/update-auto-recharge",
        { organizationId, enabled: true, threshold: 20, amount: 50 },
        { session },
      );
      const db = testApp.database.db;
      const deps = moneyDeps(testApp.deps);
      // Usage takes the balance from 30 to 18: below the threshold.
      await Promise.all(
        Array.from({ length: 6 }, () => chargeCall(db, { organizationId, amountMicros: 2_000_000n })),
      );
      const triggered = await Promise.all(
        Array.from({ length: 10 }, () => triggerAutoRechargeIfNeeded(deps, organizationId)),
      );
      expect(triggered.filter(Boolean)).toHaveLength(1);
      expect(await cachedBalance(db, organizationId)).toBe(68_000_000n);
      const autoPayments = (
        await db.select().from(payments).where(eq(payments.organizationId, organizationId))
      ).filter((payment) => payment.kind === "auto");
      expect(autoPayments).toHaveLength(1);

      // Back above the threshold it is armed again: the next crossing recharges once more.
      await chargeCall(db, { organizationId, amountMicros: 50_000_000n });
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(true);
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(false);
      expect(await cachedBalance(db, organizationId)).toBe(68_000_000n);
    });

    it("records a failed auto recharge, mails the owner, and does not retry in a loop", async () => {
      const account = await owner();
      const { session, organizationId } = account;
      await addSandboxCard(testApp, session, organizationId);
      await post(testApp, "/v1/payments/recharge-account", { organizationId, amount: 25 }, { session });
      await addSandboxCard(testApp, session, organizationId, "4000000000009995");
      await post(
        testApp,
        "/v1/payments/update-auto-recharge",
        { organizationId, enabled: true, threshold: 20, amount: 40 },
        { session },
      );
      const db = testApp.database.db;
      const deps = moneyDeps(testApp.deps);
      await chargeCall(db, { organizationId, amountMicros: 10_000_000n });
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(true);
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(false);
      const rows = await db.select().from(payments).where(eq(payments.organizationId, organizationId));
      expect(rows.filter((row) => row.kind === "auto").map((row) => row.status)).toEqual(["failed"]);
      // The mail goes out from the job queue.
      await testApp.app.jobWorker.drain();
      const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === account.email);
      expect(mail?.subject).toContain("Auto recharge failed");
      // Webhooks hear of it once, with the card's error, and of the failed payment.
      const events = await db
        .select()
        .from(organizationEvents)
        .where(eq(organizationEvents.organizationId, organizationId));
      const failed = events.filter((event) => event.type === "auto_recharge.failed");
      expect(failed).toHaveLength(1);
      expect(failed[0]?.payload).toMatchObject({
        data: { message: rows.find((row) => row.kind === "auto")?.failureMessage },
      });
      expect(events.filter((event) => event.type === "payment.failed")).toHaveLength(1);
      expect(events.filter((event) => event.type === "payment.succeeded")).toHaveLength(1);
      expect(await cachedBalance(db, organizationId)).toBe(15_000_000n);
    });

    it("reports an auto recharge with no card left to charge, once", async () => {
      const account = await owner();
      const { session, organizationId } = account;
      await addSandboxCard(testApp, session, organizationId);
      await post(testApp, "/v1/payments/recharge-account", { organizationId, amount: 25 }, { session });
      await post(
        testApp,
        "/v1/payments/update-auto-recharge",
        { organizationId, enabled: true, threshold: 20, amount: 40 },
        { session },
      );
      expect(
        (await post(testApp, "/v1/payments/delete-payment", { organizationId }, { session })).statusCode,
      ).toBe(200);
      const db = testApp.database.db;
      const deps = moneyDeps(testApp.deps);
      await chargeCall(db, { organizationId, amountMicros: 10_000_000n });
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(true);
      expect(await triggerAutoRechargeIfNeeded(deps, organizationId)).toBe(false);
      const rows = await db.select().from(payments).where(eq(payments.organizationId, organizationId));
      expect(rows.filter((row) => row.kind === "auto")).toEqual([]);
      await testApp.app.jobWorker.drain();
      const mails = (await testApp.deps.outbox.list()).filter(
        (candidate) => candidate.to === account.email && candidate.subject.startsWith("Auto recharge failed"),
      );
      expect(mails).toHaveLength(1);
      const events = await db
        .select()
        .from(organizationEvents)
        .where(eq(organizationEvents.organizationId, organizationId));
      const failed = events.filter((event) => event.type === "auto_recharge.failed");
      expect(failed).toHaveLength(1);
      expect(failed[0]?.payload).toMatchObject({ data: { amount: 40, message: PAYMENT_METHOD_REQUIRED } });
    });
  });

  describe("billing details", () => {
    it("saves every field and requires all but the tax id", async () => {
      const { session, organizationId } = await owner();
      const details = {
        organizationId,
        billingName: "Acme Inc.",
        billingEmail: "billing@acme.example",
        taxId: "",
        address: "1 Infinite Loop",
        city: "Cupertino",
        state: "CA",
        zipCode: "95014",
        country: "US",
      };
      expect(
        (await post(testApp, "/v1/users/organizations/update-billing", details, { session })).statusCode,
      ).toBe(200);
      const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
      expect(me.organizations[0]).toMatchObject({
        billingName: "Acme Inc.",
        city: "Cupertino",
        taxId: null,
        country: "US",
      });
      const missing = await post(
        testApp,
        "/v1/users/organizations/update-billing",
        { ...details, city: " " },
        { session },
      );
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        error: "invalid-input",
        field: "city",
        message: `city: ${REQUIRED_FIELDS_MISSING}`,
      });
    });
  });

  describe("permissions", () => {
    it("refuses payments, billing and invoices to a member without those flags", async () => {
      const { session, organizationId } = await owner();
      const email = uniqueEmail("clerk");
      await post(
        testApp,
        "/v1/users/organization-members/invite",
        { organizationId, emailList: email, permissions: emptyPermissions() },
        { session },
      );
      const invitationId = (await testApp.deps.outbox.list())
        .find((mail) => mail.to === email)
        ?.text.match(/invitation=([0-9a-f-]{36})/)?.[1];
      const member = await signUpAndConfirm(testApp, { email });
      await post(
        testApp,
        "/v1/users/organization-members/confirm-invitation",
        { invitationId, confirmed: true },
        { session: member.session },
      );
      for (const [path, payload] of [
        ["/v1/payments/get-payment-info", { organizationId }],
        ["/v1/payments/start-setup-payment", { organizationId }],
        ["/v1/payments/recharge-account", { organizationId, amount: 20 }],
        ["/v1/payments/update-auto-recharge", { organizationId, enabled: false, threshold: 0, amount: 0 }],
        ["/v1/payments/delete-payment", { organizationId }],
        ["/v1/users/invoices/get", { organizationId, page: 1 }],
        [
          "/v1/users/organizations/update-billing",
          {
            organizationId,
            billingName: "x",
            billingEmail: "x@x.io",
            address: "x",
            city: "x",
            state: "x",
            zipCode: "x",
            country: "US",
          },
        ],
      ] as const) {
        const response = await post(testApp, path, payload, { session: member.session });
        expect(response.statusCode, path).toBe(403);
      }
    });
  });
});

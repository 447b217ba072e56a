import type { AddressInfo } from "node:net";
import { PAYMENT_UNCONFIRMED } from "@prism/contract";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { FakeStripe } from "../../../test/fake-stripe";
import { multipart } from "../../../test/images";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { pdfText } from "../../../test/pdf-text";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizationEvents, payments } from "../../db/schema";
import { cachedBalance, ledgerBalance } from "../ledger/ledger.service";
import { moneyDeps } from "./payments.routes";
import { reconcilePendingPayments } from "./recharge.service";

const WEBHOOK_SECRET = "whsec_abuse_secret";

/**
 * Every Stripe charge is credited exactly once, whatever the order, timing and number of the events
 * that report it, and refunds and disputes take the money back once. The Stripe stub is a real HTTP
 * server; the app listens on a real port and receives its webhooks signed with the endpoint's secret.
 */
describe("Stripe money under hostile timing (abuse)", () => {
  let stripe: FakeStripe;
  let modelServer: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    modelServer = await startLocalServer((_request, response) => {
      void sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
        .png()
        .toBuffer()
        .then((png) => {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(png);
        });
    });
    testApp = await createTestApp({
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE_URL: stripe.url,
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal",
    });
    await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = testApp.app.server.address() as AddressInfo;
    stripe.connectWebhook(`http://127.0.0.1:${port}/v1/payments/stripe/webhook`, WEBHOOK_SECRET);
  });

  afterEach(() => {
    stripe.nextPaymentStatus = "succeeded";
    stripe.dropPaymentIntentResponses = 0;
    stripe.beforePaymentIntentResponse = undefined;
  });

  afterAll(async () => {
    await testApp?.close();
    await stripe?.close();
    await modelServer?.close();
  });

  async function ownerWithCard() {
    const account = await signUpAndConfirm(testApp);
    const organizationId = account.userInfo.organizations[0].id as string;
    const projectId = account.userInfo.organizations[0].projects[0].id as string;
    const started = await post(
      testApp,
      "/v1/payments/start-setup-payment",
      { organizationId },
      { session: account.session },
    );
    const setupIntentId = stripe.confirmSetupInBrowser(started.json().clientSecret);
    const finished = await post(
      testApp,
      "/v1/payments/finish-setup-payment",
      { organizationId, setupIntentId },
      { session: account.session },
    );
    expect(finished.statusCode).toBe(200);
    return { ...account, organizationId, projectId };
  }

  function recharge(session: string, organizationId: string, amount: number) {
    return post(testApp, "/v1/payments/recharge-account", { organizationId, amount }, { session });
  }

  /** The balance the console shows, after checking the cached balance against the ledger's sum. */
  async function balanceOf(session: string, organizationId: string): Promise<number> {
    const db = testApp.database.db;
    expect(await cachedBalance(db, organizationId)).toBe(await ledgerBalance(db, organizationId));
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    return me.organizations.find((organization: { id: string }) => organization.id === organizationId)
      .balance;
  }

  async function invoiceList(session: string, organizationId: string) {
    const listed = await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session });
    expect(listed.statusCode).toBe(200);
    return (listed.json().invoices as { invoiceId: string; amount: number }[]).map(
      ({ invoiceId, amount }) => ({
        invoiceId,
        amount,
      }),
    );
  }

  async function documentText(session: string, invoiceId: string): Promise<string> {
    const link = await post(testApp, "/v1/users/invoices/retrieve-link", { invoiceId }, { session });
    expect(link.statusCode).toBe(200);
    const pdf = await testApp.app.inject({ method: "GET", url: link.json().url });
    expect(pdf.statusCode).toBe(200);
    return pdfText(pdf.rawPayload);
  }

  it("credits a payment whose success webhook arrives before the create call returns, once", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.nextPaymentStatus = "processing";
    const early: number[] = [];
    stripe.beforePaymentIntentResponse = async (intent) => {
      early.push(await stripe.deliver(stripe.succeed(intent.id)));
    };

    const recharged = await recharge(session, organizationId, 25);

    expect(recharged.statusCode).toBe(200);
    expect(early).toEqual([200]);
    expect(await balanceOf(session, organizationId)).toBe(25);
    // Stripe delivers again when it missed our answer: nothing more is credited.
    const [succeeded] = stripe.eventsFor(stripe.lastPaymentIntent().id, "payment_intent.succeeded");
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(25);
    expect(await invoiceList(session, organizationId)).toEqual([
      { invoiceId: expect.stringMatching(/^INV-\d{6}$/), amount: 25 },
    ]);
  });

  it("credits a charge whose create response was lost, once, when its webhook arrives", async () => {
    const { session, organizationId } = await ownerWithCard();
    const intentsBefore = stripe.paymentIntents.size;
    // The first call and both of the SDK's retries (same idempotency key) lose their answer.
    stripe.dropPaymentIntentResponses = 3;

    const recharged = await recharge(session, organizationId, 30);

    expect(recharged.statusCode).toBe(502);
    expect(recharged.json()).toMatchObject({ error: "payment-unconfirmed", message: PAYMENT_UNCONFIRMED });
    // The retries carried the same idempotency key: Stripe charged once.
    expect(stripe.paymentIntents.size).toBe(intentsBefore + 1);
    const intent = stripe.lastPaymentIntent();
    const [row] = await testApp.database.db
      .select()
      .from(payments)
      .where(eq(payments.organizationId, organizationId));
    expect(intent.metadata).toMatchObject({ paymentId: row?.id, organizationId });
    expect(await balanceOf(session, organizationId)).toBe(0);

    const [succeeded] = stripe.eventsFor(intent.id, "payment_intent.succeeded");
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(30);
    expect(await invoiceList(session, organizationId)).toHaveLength(1);
  });

  it("credits a charge whose create response was lost, once, by reconciliation when no webhook comes", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.dropPaymentIntentResponses = 3;
    expect((await recharge(session, organizationId, 40)).statusCode).toBe(502);
    expect(await balanceOf(session, organizationId)).toBe(0);

    const deps = moneyDeps(testApp.deps);
    await reconcilePendingPayments(deps, { minAgeMs: 0 });
    await reconcilePendingPayments(deps, { minAgeMs: 0 });
    expect(await balanceOf(session, organizationId)).toBe(40);

    // The webhook still arrives, late: nothing more.
    const [succeeded] = stripe.eventsFor(stripe.lastPaymentIntent().id, "payment_intent.succeeded");
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(40);
    const [row] = await testApp.database.db
      .select()
      .from(payments)
      .where(eq(payments.organizationId, organizationId));
    expect(row).toMatchObject({ status: "succeeded", providerPaymentId: stripe.lastPaymentIntent().id });
  });

  it("takes back a refund of a charge whose create response was lost, even before its success event", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.dropPaymentIntentResponses = 3;
    expect((await recharge(session, organizationId, 30)).statusCode).toBe(502);
    const intentId = stripe.lastPaymentIntent().id;
    // The refund event carries only the intent's id, which was never recorded: Stripe is asked.
    const refunded = stripe.refund(intentId);
    expect(await stripe.deliver(refunded)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(0);
    const [succeeded] = stripe.eventsFor(intentId, "payment_intent.succeeded");
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(0);
    const listed = await invoiceList(session, organizationId);
    expect(listed.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-30, 30]);
  });

  it("answers 503 to an event for one of its payments that it cannot find, so Stripe retries", async () => {
    const { organizationId } = await ownerWithCard();
    const event = stripe.event("payment_intent.succeeded", {
      id: "pi_not_recorded",
      object: "payment_intent",
      status: "succeeded",
      amount: 2500,
      metadata: { organizationId, paymentId: "0b0e0f7a-7d0e-4c36-9d43-5a0b8c1e2f00" },
    });
    expect(await stripe.deliver(event)).toBe(503);
    // A payment that is not Prism's at all (another integration on the same account) is acknowledged.
    const foreign = stripe.event("payment_intent.succeeded", {
      id: "pi_foreign",
      object: "payment_intent",
      status: "succeeded",
      amount: 2500,
      metadata: {},
    });
    expect(await stripe.deliver(foreign)).toBe(200);
  });

  it("applies duplicate refund and dispute deliveries once", async () => {
    const { session, organizationId } = await ownerWithCard();
    expect((await recharge(session, organizationId, 100)).statusCode).toBe(200);
    const intentId = stripe.lastPaymentIntent().id;
    const refunded = stripe.refund(intentId, 2_500);
    // Older API versions send disputes without the intent's id: the charge leads to it.
    const disputed = stripe.event("charge.dispute.created", {
      ...(stripe.dispute(intentId).data.object as object),
      payment_intent: null,
    });

    const statuses = await Promise.all([
      ...Array.from({ length: 3 }, () => stripe.deliver(refunded)),
      ...Array.from({ length: 3 }, () => stripe.deliver(disputed)),
    ]);

    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    // 100 paid, 25 refunded, then the whole 100 withdrawn by the dispute.
    expect(await balanceOf(session, organizationId)).toBe(-25);
    const listed = await invoiceList(session, organizationId);
    expect(listed.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-100, -25, 100]);
    expect(listed.filter((entry) => entry.invoiceId.startsWith("CN-"))).toHaveLength(2);

    // The refund's credit note is a document of its own that names the invoice it corrects.
    const invoice = listed.find((entry) => entry.amount === 100)?.invoiceId ?? "";
    const refundNote = listed.find((entry) => entry.amount === -25)?.invoiceId ?? "";
    const text = await documentText(session, refundNote);
    expect(text).toContain(`Credit note number: ${refundNote}`);
    expect(text).toContain(`Refers to invoice ${invoice}`);
    expect(text).toContain("-$25.00 USD");
    expect(text).toContain("Returned to Visa ending in 4242.");
  });

  it("nets a refund delivered before the payment's success event", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.nextPaymentStatus = "processing";
    expect((await recharge(session, organizationId, 50)).statusCode).toBe(200);
    const intentId = stripe.lastPaymentIntent().id;
    const succeeded = stripe.succeed(intentId);
    const firstRefund = stripe.refund(intentId, 1_000);
    const secondRefund = stripe.refund(intentId, 1_500);

    // Newest first: the cumulative refund, then the older partial one, then the success.
    expect(await stripe.deliver(secondRefund)).toBe(200);
    expect(await stripe.deliver(firstRefund)).toBe(200);
    expect(await stripe.deliver(succeeded)).toBe(200);

    expect(await balanceOf(session, organizationId)).toBe(25);
    const listed = await invoiceList(session, organizationId);
    expect(listed.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-25, 50]);
  });

  it("debits a dispute once and credits it back once when the funds are reinstated", async () => {
    const { session, organizationId } = await ownerWithCard();
    expect((await recharge(session, organizationId, 60)).statusCode).toBe(200);
    const intentId = stripe.lastPaymentIntent().id;
    // An inquiry withdraws nothing; the dispute proper does.
    const inquiry = stripe.dispute(intentId, "warning_needs_response");
    expect(await stripe.deliver(inquiry)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(60);

    const disputed = stripe.dispute(intentId);
    const reinstated = stripe.reinstate(disputed);
    // The reinstatement overtakes the dispute: the order does not matter.
    expect(await stripe.deliver(reinstated)).toBe(200);
    expect(await stripe.deliver(disputed)).toBe(200);
    expect(await stripe.deliver(reinstated)).toBe(200);
    expect(await balanceOf(session, organizationId)).toBe(60);
    const listed = await invoiceList(session, organizationId);
    expect(listed.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-60, 60, 60]);
  });

  /**
   * Turns auto recharge on (threshold 20, amount 50) for an organization holding 20, and makes one
   * feature call with a key, which takes the balance to 19.99: below the threshold, so the auto
   * recharge starts after the call, and the stub answers it as `stub` says (the first recharge is
   * answered normally). Resolves once the stub has received the auto recharge's PaymentIntent.
   */
  async function crossAutoRechargeThreshold(
    account: Awaited<ReturnType<typeof ownerWithCard>>,
    stub: { status?: "succeeded" | "processing"; dropResponses?: number } = {},
  ) {
    const { session, organizationId, projectId } = account;
    expect((await recharge(session, organizationId, 20)).statusCode).toBe(200);
    const settings = await post(
      testApp,
      "/v1/payments/update-auto-recharge",
      { organizationId, enabled: true, threshold: 20, amount: 50 },
      { session },
    );
    expect(settings.statusCode).toBe(200);
    const apiKey = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "ci" }, { session })
    ).json().apiKey.content as string;
    const intentsBefore = stripe.paymentIntents.size;
    stripe.nextPaymentStatus = stub.status ?? "succeeded";
    stripe.dropPaymentIntentResponses = stub.dropResponses ?? 0;
    const body = multipart([
      {
        name: "image",
        value: await sharp({ create: { width: 16, height: 16, channels: 3, background: "#09f" } })
          .png()
          .toBuffer(),
        filename: "photo.png",
        contentType: "image/png",
      },
    ]);
    const called = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(called.statusCode, called.body).toBe(200);
    await vi.waitFor(() => expect(stripe.paymentIntents.size).toBe(intentsBefore + 1), { timeout: 15_000 });
    return stripe.lastPaymentIntent();
  }

  async function autoPaymentsOf(organizationId: string) {
    return (
      await testApp.database.db.select().from(payments).where(eq(payments.organizationId, organizationId))
    ).filter((payment) => payment.kind === "auto");
  }

  /** What the organization's webhooks and its payments managers heard of the failed auto recharge. */
  async function failureReports(account: { email: string; organizationId: string }) {
    await testApp.app.jobWorker.drain();
    const events = await testApp.database.db
      .select()
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, account.organizationId));
    const mails = (await testApp.deps.outbox.list()).filter(
      (mail) => mail.to === account.email && mail.subject.startsWith("Auto recharge failed"),
    );
    return {
      autoRechargeFailed: events.filter((event) => event.type === "auto_recharge.failed"),
      paymentFailed: events.filter((event) => event.type === "payment.failed"),
      mails,
    };
  }

  it("credits an auto recharge whose create response was lost, once, when its webhook arrives", async () => {
    const account = await ownerWithCard();
    const { session, organizationId } = account;
    const intent = await crossAutoRechargeThreshold(account, { dropResponses: 3 });
    await vi.waitFor(() => expect(stripe.dropPaymentIntentResponses).toBe(0), { timeout: 15_000 });

    const [succeeded] = stripe.eventsFor(intent.id, "payment_intent.succeeded");
    expect(await stripe.deliver(succeeded!)).toBe(200);
    expect(await stripe.deliver(succeeded!)).toBe(200);
    await vi.waitFor(async () => expect(await balanceOf(session, organizationId)).toBe(69.99));
    expect(await autoPaymentsOf(organizationId)).toMatchObject([
      { status: "succeeded", providerPaymentId: intent.id },
    ]);
  });

  it("reports an auto recharge refused later by webhook once, with its event and mail, however often the webhook comes", async () => {
    const account = await ownerWithCard();
    const { session, organizationId } = account;
    const intent = await crossAutoRechargeThreshold(account, { status: "processing" });
    await vi.waitFor(async () =>
      expect(await autoPaymentsOf(organizationId)).toMatchObject([
        { status: "pending", providerPaymentId: intent.id },
      ]),
    );
    // Processing is not a failure: nothing is reported yet.
    expect(await failureReports(account)).toMatchObject({ autoRechargeFailed: [], mails: [] });

    const refused = stripe.fail(intent.id, "Your bank declined the payment.");
    expect(await stripe.deliver(refused)).toBe(200);
    expect(await stripe.deliver(refused)).toBe(200);
    const reports = await failureReports(account);
    expect(reports.autoRechargeFailed).toHaveLength(1);
    expect(reports.autoRechargeFailed[0]?.payload).toMatchObject({
      type: "auto_recharge.failed",
      data: { organization_id: organizationId, amount: 50, message: "Your bank declined the payment." },
    });
    expect(reports.paymentFailed).toHaveLength(1);
    expect(reports.mails).toHaveLength(1);
    expect(reports.mails[0]?.text).toContain("Your bank declined the payment.");

    // A third delivery after the mail went out changes nothing either.
    expect(await stripe.deliver(refused)).toBe(200);
    const again = await failureReports(account);
    expect(again.autoRechargeFailed).toHaveLength(1);
    expect(again.mails).toHaveLength(1);
    expect(await autoPaymentsOf(organizationId)).toMatchObject([{ status: "failed" }]);
    expect(await balanceOf(session, organizationId)).toBe(19.99);
  });

  it("reports an unconfirmed auto recharge that reconciliation finds refused once, and not again when the webhook follows", async () => {
    const account = await ownerWithCard();
    const { session, organizationId } = account;
    const intent = await crossAutoRechargeThreshold(account, { status: "processing", dropResponses: 3 });
    await vi.waitFor(() => expect(stripe.dropPaymentIntentResponses).toBe(0), { timeout: 15_000 });
    const refused = stripe.fail(intent.id, "Your bank declined the payment.");

    const deps = moneyDeps(testApp.deps);
    await vi.waitFor(async () =>
      expect(await autoPaymentsOf(organizationId)).toMatchObject([{ status: "pending" }]),
    );
    await reconcilePendingPayments(deps, { minAgeMs: 0 });
    await reconcilePendingPayments(deps, { minAgeMs: 0 });
    expect(await autoPaymentsOf(organizationId)).toMatchObject([
      { status: "failed", providerPaymentId: intent.id, failureMessage: "Your bank declined the payment." },
    ]);
    expect(await stripe.deliver(refused)).toBe(200);

    const reports = await failureReports(account);
    expect(reports.autoRechargeFailed).toHaveLength(1);
    expect(reports.paymentFailed).toHaveLength(1);
    expect(reports.mails).toHaveLength(1);
    expect(await balanceOf(session, organizationId)).toBe(19.99);
  });
});

import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { FakeStripe } from "../../../test/fake-stripe";
import { pdfText } from "../../../test/pdf-text";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { cachedBalance, ledgerBalance } from "../../modules/ledger/ledger.service";

const WEBHOOK_SECRET = "whsec_test_secret";

describe("payments (Stripe provider against a local Stripe API)", () => {
  let stripe: FakeStripe;
  let testApp: TestApp;
  const signer = new Stripe("sk_test_signer");

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    testApp = await createTestApp({
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE_URL: stripe.url,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await stripe?.close();
  });

  function deliverWebhook(event: object, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return testApp.app.inject({
      method: "POST",
      url: "/v1/payments/stripe/webhook",
      headers: { "content-type": "application/json", "stripe-signature": header },
      payload,
    });
  }

  const succeededEvent = (paymentIntentId: string) => ({
    id: `evt_${paymentIntentId}`,
    object: "event",
    type: "payment_intent.succeeded",
    data: { object: { id: paymentIntentId, object: "payment_intent", status: "succeeded" } },
  });

  async function ownerWithCard() {
    const account = await signUpAndConfirm(testApp);
    const organizationId = account.userInfo.organizations[0].id as string;
    const started = await post(
      testApp,
      "/v1/payments/start-setup-payment",
      { organizationId },
      { session: account.session },
    );
    expect(started.statusCode).toBe(200);
    const setupIntentId = stripe.confirmSetupInBrowser(started.json().clientSecret, {
      brand: "amex",
      last4: "0005",
    });
    const finished = await post(
      testApp,
      "/v1/payments/finish-setup-payment",
      { organizationId, setupIntentId },
      { session: account.session },
    );
    expect(finished.statusCode).toBe(200);
    return { ...account, organizationId };
  }

  it("publishes the stripe provider and its publishable key", async () => {
    const config = (await post(testApp, "/v1/public-config")).json();
    expect(config.payments).toEqual({ provider: "stripe", publishableKey: "pk_test_fake" });
  });

  it("saves the card of a confirmed SetupIntent on the organization's own customer", async () => {
    const { session, organizationId } = await ownerWithCard();
    const info = (
      await post(testApp, "/v1/payments/get-payment-info", { organizationId }, { session })
    ).json();
    expect(info.payment).toMatchObject({ brand: "american express", last4: "0005", funding: "credit" });

    // A setup intent made for another organization's customer cannot be attached here.
    const other = await ownerWithCard();
    const otherStart = await post(
      testApp,
      "/v1/payments/start-setup-payment",
      { organizationId: other.organizationId },
      { session: other.session },
    );
    const foreignIntent = stripe.confirmSetupInBrowser(otherStart.json().clientSecret);
    const stolen = await post(
      testApp,
      "/v1/payments/finish-setup-payment",
      { organizationId, setupIntentId: foreignIntent },
      { session },
    );
    expect(stolen.statusCode).toBe(404);
  });

  it("credits a synchronous success once, even when the webhook arrives too, twice", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.nextPaymentStatus = "succeeded";
    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 40 },
      { session },
    );
    expect(recharged.statusCode).toBe(200);
    const intentId = [...stripe.paymentIntents.keys()].at(-1) ?? "";
    for (let delivery = 0; delivery < 2; delivery += 1) {
      expect((await deliverWebhook(succeededEvent(intentId))).statusCode).toBe(200);
    }
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(40_000_000n);
    expect(await ledgerBalance(testApp.database.db, organizationId)).toBe(40_000_000n);
    const invoices = (
      await post(testApp, "/v1/users/invoices/get", { organizationId, page: 1 }, { session })
    ).json();
    expect(invoices.invoices).toHaveLength(1);
    const link = await post(
      testApp,
      "/v1/users/invoices/retrieve-link",
      { invoiceId: invoices.invoices[0].invoiceId },
      { session },
    );
    // The invoice is ours (seller, buyer, tax ids), not Stripe's receipt.
    const url = link.json().url as string;
    expect(url).toMatch(/^\/v1\/invoices\/[0-9a-f-]{36}\/pdf\?token=/);
    const pdf = await testApp.app.inject({ method: "GET", url });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain("Paid with American Express ending in 0005.");
  });

  it("credits a processing payment when its webhook arrives, once, whatever the replays", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.nextPaymentStatus = "processing";
    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 25 },
      { session },
    );
    expect(recharged.statusCode).toBe(200);
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(0n);
    const intentId = [...stripe.paymentIntents.keys()].at(-1) ?? "";
    const deliveries = await Promise.all(
      Array.from({ length: 3 }, () => deliverWebhook(succeededEvent(intentId))),
    );
    expect(deliveries.every((delivery) => delivery.statusCode === 200)).toBe(true);
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(25_000_000n);
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    expect(me.organizations[0].properties.isNew).toBe(false);
  });

  it("refuses a declined charge with the card's reason and credits nothing", async () => {
    const { session, organizationId } = await ownerWithCard();
    stripe.nextPaymentStatus = "card_declined";
    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 25 },
      { session },
    );
    expect(recharged.statusCode).toBe(402);
    expect(recharged.json()).toMatchObject({
      error: "payment-failed",
      message: "Your card has insufficient funds.",
    });
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(0n);
    stripe.nextPaymentStatus = "succeeded";
  });

  it("rejects webhooks with a bad signature and ignores unknown payments", async () => {
    const forged = await deliverWebhook(succeededEvent("pi_unknown"), "whsec_wrong");
    expect(forged.statusCode).toBe(400);
    const unknown = await deliverWebhook(succeededEvent("pi_unknown"));
    expect(unknown.statusCode).toBe(200);
  });
});

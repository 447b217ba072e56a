import { createRequire } from "node:module";
import type Stripe from "stripe";
import type { Database } from "../../db/client";
import { findStripeCustomerId, insertStripeCustomer } from "./payment-accounts.store";
import {
  type ChargeOutcome,
  PaymentProviderError,
  type PaymentsProvider,
  type SavedPaymentMethod,
} from "./payments-provider";

const MICROS_PER_CENT = 10_000n;
/** Our clock and Stripe's may disagree a little about when a payment was created. */
const CLOCK_SKEW_SECONDS = 300;

function outcomeOf(intent: Stripe.PaymentIntent): ChargeOutcome {
  if (intent.status === "succeeded") {
    const charge = intent.latest_charge;
    const receiptUrl = charge && typeof charge !== "string" ? (charge.receipt_url ?? null) : null;
    return { status: "succeeded", providerPaymentId: intent.id, receiptUrl };
  }
  if (intent.status === "processing") return { status: "pending", providerPaymentId: intent.id };
  return {
    status: "failed",
    providerPaymentId: intent.id,
    message: intent.last_payment_error?.message ?? "The payment could not be completed.",
  };
}

export interface StripeSettings {
  secretKey: string;
  /** Stripe's API origin; tests point it at a local server that speaks the same endpoints. */
  apiBaseUrl: string | undefined;
}

/**
 * The SDK, required when first needed rather than imported with the module: a deployment without
 * Stripe (development, the sandbox) never loads it, which costs start-up time (issue 16). Its
 * CommonJS entry exports the constructor itself, with the error classes on it.
 */
function stripeSdk(): typeof Stripe {
  return createRequire(import.meta.url)("stripe") as typeof Stripe;
}

export function createStripeClient(settings: StripeSettings): Stripe {
  const StripeSdk = stripeSdk();
  const base = settings.apiBaseUrl ? new URL(settings.apiBaseUrl) : undefined;
  return new StripeSdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

/**
 * Stripe: one customer per organization, a SetupIntent to save the card (confirmed in the browser by
 * Stripe.js), and off-session PaymentIntents with idempotency keys for recharges, each carrying our
 * payment's id in its metadata. Success is also delivered by webhook; the money module credits
 * whichever arrives first, once.
 */
export class StripePaymentsProvider implements PaymentsProvider {
  readonly kind = "stripe";

  constructor(
    private readonly stripe: Stripe,
    private readonly db: Database,
  ) {}

  private async customerFor(organization: { id: string; name: string; billingEmail: string | null }) {
    const existing = await findStripeCustomerId(this.db, organization.id);
    if (existing !== undefined) return existing;
    const customer = await this.stripe.customers.create(
      {
        name: organization.name,
        ...(organization.billingEmail ? { email: organization.billingEmail } : {}),
        metadata: { organizationId: organization.id },
      },
      { idempotencyKey: `customer-${organization.id}` },
    );
    await insertStripeCustomer(this.db, organization.id, customer.id);
    return customer.id;
  }

  private async existingCustomer(organizationId: string): Promise<string | undefined> {
    return findStripeCustomerId(this.db, organizationId);
  }

  async startSetup(organization: { id: string; name: string; billingEmail: string | null }) {
    const customer = await this.customerFor(organization);
    const intent = await this.stripe.setupIntents.create({
      customer,
      usage: "off_session",
      metadata: { organizationId: organization.id },
    });
    if (!intent.client_secret) throw new Error("Stripe returned a setup intent without a client secret");
    return { clientSecret: intent.client_secret };
  }

  async finishSetup(organizationId: string, setupIntentId: string): Promise<SavedPaymentMethod> {
    const customer = await this.existingCustomer(organizationId);
    let intent: Stripe.SetupIntent;
    try {
      intent = await this.stripe.setupIntents.retrieve(setupIntentId, { expand: ["payment_method"] });
    } catch {
      throw new PaymentProviderError("The card setup was not found.", "not-found");
    }
    const intentCustomer = typeof intent.customer === "string" ? intent.customer : intent.customer?.id;
    // A setup intent of another organization's customer must never attach here.
    if (!customer || intentCustomer !== customer) {
      throw new PaymentProviderError("The card setup was not found.", "not-found");
    }
    if (intent.status !== "succeeded")
      throw new PaymentProviderError("The card setup was not completed.", "invalid");
    const method = intent.payment_method;
    if (!method || typeof method === "string" || !method.card) {
      throw new PaymentProviderError("The card setup has no card.", "invalid");
    }
    await this.stripe.customers.update(customer, { invoice_settings: { default_payment_method: method.id } });
    return {
      providerPaymentMethodId: method.id,
      brand: method.card.brand === "amex" ? "american express" : method.card.brand,
      funding: method.card.funding,
      last4: method.card.last4,
      country: method.card.country ?? null,
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
    };
  }

  async charge(input: {
    organizationId: string;
    paymentId: string;
    paymentMethodId: string;
    amountMicros: bigint;
    idempotencyKey: string;
    description: string;
  }): Promise<ChargeOutcome> {
    const customer = await this.existingCustomer(input.organizationId);
    if (!customer)
      return {
        status: "failed",
        providerPaymentId: null,
        message: "No Stripe customer for this organization.",
      };
    const cents = Number(input.amountMicros / MICROS_PER_CENT);
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: cents,
          currency: "usd",
          customer,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          description: input.description,
          metadata: { organizationId: input.organizationId, paymentId: input.paymentId },
          expand: ["latest_charge"],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return outcomeOf(intent);
    } catch (error) {
      const { errors } = stripeSdk();
      if (error instanceof errors.StripeCardError) {
        const intentId = (error.raw as { payment_intent?: { id?: string } }).payment_intent?.id ?? null;
        return { status: "failed", providerPaymentId: intentId, message: error.message };
      }
      // The request may have reached Stripe and charged the card: only the answer is missing.
      if (error instanceof errors.StripeConnectionError || error instanceof errors.StripeAPIError) {
        return { status: "unconfirmed", reason: error.message };
      }
      throw error;
    }
  }

  async findCharge(input: {
    organizationId: string;
    paymentId: string;
    since: Date;
  }): Promise<ChargeOutcome | undefined> {
    const customer = await this.existingCustomer(input.organizationId);
    if (!customer) return undefined;
    // Listing is read-only and strongly consistent (search is not), so it can never charge twice.
    const since = Math.floor(input.since.getTime() / 1000) - CLOCK_SKEW_SECONDS;
    for await (const intent of this.stripe.paymentIntents.list({
      customer,
      created: { gte: since },
      limit: 100,
    })) {
      if (intent.metadata?.paymentId === input.paymentId) return outcomeOf(intent);
    }
    return undefined;
  }

  async detach(_organizationId: string, paymentMethodId: string): Promise<void> {
    await this.stripe.paymentMethods.detach(paymentMethodId);
  }
}

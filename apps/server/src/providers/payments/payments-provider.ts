/** The card details we keep and show; never the number. */
export interface CardDetails {
  brand: string;
  funding: string;
  last4: string;
  country: string | null;
  expMonth: number;
  expYear: number;
}

export interface SavedPaymentMethod extends CardDetails {
  providerPaymentMethodId: string;
}

export type ChargeOutcome =
  | { status: "succeeded"; providerPaymentId: string; receiptUrl: string | null }
  /** The provider will confirm later (webhook); the balance is credited then. */
  | { status: "pending"; providerPaymentId: string }
  | { status: "failed"; providerPaymentId: string | null; message: string }
  /**
   * The provider's answer was lost (network failure, provider error): the card may or may not have
   * been charged. The payment stays pending until a webhook or reconciliation says which.
   */
  | { status: "unconfirmed"; reason: string };

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly kind: "declined" | "invalid" | "not-found",
    /** The card field an "invalid" refusal is about, as the sandbox confirm-setup request names it. */
    readonly field?: "number" | "expMonth" | "cvc",
  ) {
    super(message);
  }
}

/**
 * What the money module needs from a payments provider. `sandbox` implements it against our own
 * database (test cards behave as Stripe's); `stripe` against Stripe's API with the official SDK.
 */
export interface PaymentsProvider {
  readonly kind: "sandbox" | "stripe";
  /** A setup intent for saving a card; its client secret goes to the card form. */
  startSetup(organization: {
    id: string;
    name: string;
    billingEmail: string | null;
  }): Promise<{ clientSecret: string }>;
  /** Reads a confirmed setup intent, checking it belongs to the organization. */
  finishSetup(organizationId: string, setupIntentId: string): Promise<SavedPaymentMethod>;
  /**
   * Charges the saved card off-session; `idempotencyKey` makes a retried request charge once, and
   * `paymentId` (our payment row) travels with the charge so its webhooks find the payment even when
   * this call's answer never arrives.
   */
  charge(input: {
    organizationId: string;
    paymentId: string;
    paymentMethodId: string;
    amountMicros: bigint;
    idempotencyKey: string;
    description: string;
  }): Promise<ChargeOutcome>;
  /**
   * What became of the charge made for `paymentId` (created no earlier than `since`), read from the
   * provider without charging anything; undefined when the provider has no such charge.
   */
  findCharge(input: {
    organizationId: string;
    paymentId: string;
    since: Date;
  }): Promise<ChargeOutcome | undefined>;
  detach(organizationId: string, paymentMethodId: string): Promise<void>;
}

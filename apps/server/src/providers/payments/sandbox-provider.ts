import { createHash, randomBytes } from "node:crypto";
import {
  CARD_EXPIRED,
  CARD_NUMBER_INVALID,
  CARD_SECURITY_CODE_INVALID,
  cardNumberLength,
  cardSecurityCodeLength,
  detectCardNetwork,
  passesLuhn,
} from "@prism/contract";
import type { Database } from "../../db/client";
import type { SandboxCard } from "../../db/json-columns";
import {
  type ChargeOutcome,
  PaymentProviderError,
  type PaymentsProvider,
  type SavedPaymentMethod,
} from "./payments-provider";
import {
  findCardOfPaymentMethod,
  findOrganizationSetupIntent,
  findSetupIntentBySecret,
  insertSetupIntent,
  updateSetupIntent,
} from "./sandbox-setup-intents.store";

/** Stripe's test cards that do not simply succeed. */
const DECLINED_AT_SETUP = new Set(["4000000000000002"]);
const FAILS_EVERY_CHARGE = new Set(["4000000000009995"]);

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/**
 * The embedded payments provider: no money moves. It follows Stripe's flow (setup intent, client
 * secret, confirm, off-session charge) and its test cards, so the console and tests exercise the
 * same paths as production. Card numbers are checked and then dropped; only display details stay.
 */
export class SandboxPaymentsProvider implements PaymentsProvider {
  readonly kind = "sandbox";

  constructor(private readonly db: Database) {}

  async startSetup(organization: { id: string }): Promise<{ clientSecret: string }> {
    const id = randomId("seti_sbx");
    const clientSecret = `${id}_secret_${randomBytes(16).toString("hex")}`;
    await insertSetupIntent(this.db, {
      id,
      organizationId: organization.id,
      clientSecretHash: hashSecret(clientSecret),
      status: "requires_payment_method",
    });
    return { clientSecret };
  }

  /** The card form's confirm step (Stripe.js's confirmCardSetup in stripe mode). */
  async confirmSetup(input: {
    clientSecret: string;
    number: string;
    expMonth: number;
    expYear: number;
    cvc: string;
  }): Promise<{ setupIntentId: string }> {
    const id = input.clientSecret.split("_secret_")[0] ?? "";
    const intent = await findSetupIntentBySecret(this.db, id, hashSecret(input.clientSecret));
    if (!intent)
      throw new PaymentProviderError("This card setup has expired. Please try again.", "not-found");
    const brand = detectCardNetwork(input.number);
    const length = cardNumberLength(brand);
    if (!passesLuhn(input.number) || (length !== null && input.number.length !== length)) {
      throw new PaymentProviderError(CARD_NUMBER_INVALID, "invalid", "number");
    }
    const now = new Date();
    const expired =
      input.expYear < now.getUTCFullYear() ||
      (input.expYear === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1);
    if (expired) throw new PaymentProviderError(CARD_EXPIRED, "invalid", "expMonth");
    if (!new RegExp(`^\\d{${cardSecurityCodeLength(brand)}}$`).test(input.cvc)) {
      throw new PaymentProviderError(CARD_SECURITY_CODE_INVALID, "invalid", "cvc");
    }
    if (DECLINED_AT_SETUP.has(input.number))
      throw new PaymentProviderError("Your card was declined.", "declined");

    const card: SandboxCard = {
      brand,
      funding: "credit",
      last4: input.number.slice(-4),
      country: "US",
      expMonth: input.expMonth,
      expYear: input.expYear,
      behaviour: FAILS_EVERY_CHARGE.has(input.number) ? "insufficient-funds" : "ok",
    };
    await updateSetupIntent(this.db, id, { status: "succeeded", card, paymentMethodId: randomId("pm_sbx") });
    return { setupIntentId: id };
  }

  async finishSetup(organizationId: string, setupIntentId: string): Promise<SavedPaymentMethod> {
    const intent = await findOrganizationSetupIntent(this.db, organizationId, setupIntentId);
    if (intent?.status !== "succeeded" || !intent.card || !intent.paymentMethodId) {
      throw new PaymentProviderError("The card setup was not completed.", "not-found");
    }
    const { behaviour: _behaviour, ...card } = intent.card;
    // The payment method id encodes nothing; the behaviour is looked up from the intent at charge time.
    return { ...card, providerPaymentMethodId: intent.paymentMethodId };
  }

  async charge(input: { paymentMethodId: string; idempotencyKey: string }): Promise<ChargeOutcome> {
    const card = await findCardOfPaymentMethod(this.db, input.paymentMethodId);
    const providerPaymentId = `pi_sbx_${createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 24)}`;
    if (!card)
      return { status: "failed", providerPaymentId: null, message: "The saved card is no longer available." };
    if (card.behaviour === "insufficient-funds") {
      return { status: "failed", providerPaymentId, message: "Your card has insufficient funds." };
    }
    return { status: "succeeded", providerPaymentId, receiptUrl: null };
  }

  async findCharge(): Promise<ChargeOutcome | undefined> {
    // The sandbox answers every charge at once and keeps no record of it: a payment it never
    // answered (the process stopped in between) moved no money.
    return undefined;
  }

  async detach(): Promise<void> {
    // Nothing is held outside our own tables.
  }
}

import type { ServerResponse } from "node:http";
import Stripe from "stripe";
import { type LocalServer, sendJson, startLocalServer } from "./local-http-server";

interface FakeSetupIntent {
  id: string;
  object: "setup_intent";
  client_secret: string;
  customer: string;
  status: "requires_payment_method" | "succeeded";
  payment_method: string | null;
}

interface FakePaymentMethod {
  id: string;
  object: "payment_method";
  customer: string | null;
  card: {
    brand: string;
    funding: string;
    last4: string;
    country: string;
    exp_month: number;
    exp_year: number;
  };
}

export interface FakeCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  status: "succeeded" | "pending" | "failed";
  payment_intent: string;
  customer: string;
  receipt_url: string;
  /** Real charges may or may not carry the intent's metadata; the stub's carry none, the harder case. */
  metadata: Record<string, string>;
}

export interface FakePaymentIntent {
  id: string;
  object: "payment_intent";
  status: string;
  amount: number;
  currency: "usd";
  customer: string;
  created: number;
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error?: { type: "card_error"; code: string; message: string };
}

export interface FakeDispute {
  id: string;
  object: "dispute";
  amount: number;
  currency: "usd";
  charge: string;
  payment_intent: string;
  reason: string;
  status: string;
}

export interface FakeEvent {
  id: string;
  object: "event";
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: unknown };
}

const signer = new Stripe("sk_test_fake_signer");

/**
 * A local stand-in for the Stripe API endpoints the provider uses (customers, setup intents, payment
 * methods, payment intents), speaking Stripe's form-encoded requests and JSON objects so the official
 * SDK talks to it unchanged. `nextPaymentStatus` decides how the next PaymentIntent comes out.
 *
 * Like Stripe it records an event for each change (succeeded intents, refunds, disputes) and, once a
 * webhook endpoint is connected, delivers them over HTTP signed with the endpoint's secret. Tests
 * choose when and in which order (`deliver`), or let every event go out at once (`autoDeliver`).
 */
export class FakeStripe {
  server!: LocalServer;
  customers = new Map<string, { id: string; metadata: Record<string, string> }>();
  setupIntents = new Map<string, FakeSetupIntent>();
  paymentMethods = new Map<string, FakePaymentMethod>();
  paymentIntents = new Map<string, FakePaymentIntent>();
  charges = new Map<string, FakeCharge>();
  events: FakeEvent[] = [];
  idempotentResults = new Map<string, unknown>();
  nextPaymentStatus: "succeeded" | "processing" | "card_declined" = "succeeded";
  /** Charges this many create calls (retries included) and then drops the connection unanswered. */
  dropPaymentIntentResponses = 0;
  /** Runs after a PaymentIntent is made and before the create call is answered. */
  beforePaymentIntentResponse: ((intent: FakePaymentIntent) => Promise<void>) | undefined;
  autoDeliver = false;
  private webhook: { url: string; secret: string } | undefined;
  private counter = 0;

  async start(): Promise<this> {
    this.server = await startLocalServer((request, response) => {
      void this.handle(request, response);
    });
    return this;
  }

  get url(): string {
    return this.server.url;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The webhook endpoint configured in Stripe's dashboard, with its signing secret. */
  connectWebhook(url: string, secret: string): void {
    this.webhook = { url, secret };
  }

  /** What Stripe.js does in the browser when the user confirms the card form. */
  confirmSetupInBrowser(clientSecret: string, card: Partial<FakePaymentMethod["card"]> = {}): string {
    const intent = [...this.setupIntents.values()].find(
      (candidate) => candidate.client_secret === clientSecret,
    );
    if (!intent) throw new Error("unknown client secret");
    const method: FakePaymentMethod = {
      id: this.id("pm"),
      object: "payment_method",
      customer: intent.customer,
      card: {
        brand: "visa",
        funding: "credit",
        last4: "4242",
        country: "US",
        exp_month: 12,
        exp_year: 2031,
        ...card,
      },
    };
    this.paymentMethods.set(method.id, method);
    intent.status = "succeeded";
    intent.payment_method = method.id;
    return intent.id;
  }

  /** The newest PaymentIntent. */
  lastPaymentIntent(): FakePaymentIntent {
    const intent = [...this.paymentIntents.values()].at(-1);
    if (!intent) throw new Error("no payment intent yet");
    return intent;
  }

  /** A processing payment goes through (the bank confirmed it). */
  succeed(intentId: string): FakeEvent {
    const intent = this.requireIntent(intentId);
    intent.status = "succeeded";
    const charge = this.charges.get(intent.latest_charge ?? "");
    if (charge) charge.status = "succeeded";
    return this.record("payment_intent.succeeded", intent);
  }

  /** A processing payment is refused after all (the bank declined it later). */
  fail(intentId: string, message = "Your card was declined."): FakeEvent {
    const intent = this.requireIntent(intentId);
    intent.status = "requires_payment_method";
    intent.last_payment_error = { type: "card_error", code: "card_declined", message };
    const charge = this.charges.get(intent.latest_charge ?? "");
    if (charge) charge.status = "failed";
    return this.record("payment_intent.payment_failed", intent);
  }

  /** A refund issued from the dashboard; `amount` in cents, the whole charge by default. */
  refund(intentId: string, amount?: number): FakeEvent {
    const charge = this.requireCharge(intentId);
    charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
    charge.refunded = charge.amount_refunded === charge.amount;
    return this.record("charge.refunded", charge);
  }

  /** The cardholder disputes the charge with their bank; the disputed amount is withdrawn. */
  dispute(
    intentId: string,
    status: "needs_response" | "warning_needs_response" = "needs_response",
  ): FakeEvent {
    const charge = this.requireCharge(intentId);
    const dispute: FakeDispute = {
      id: this.id("dp"),
      object: "dispute",
      amount: charge.amount,
      currency: "usd",
      charge: charge.id,
      payment_intent: intentId,
      reason: "fraudulent",
      status,
    };
    return this.record("charge.dispute.created", dispute);
  }

  /** The dispute was won: Stripe returns the withdrawn funds. */
  reinstate(disputeEvent: FakeEvent): FakeEvent {
    const dispute = { ...(disputeEvent.data.object as FakeDispute), status: "won" };
    return this.record("charge.dispute.funds_reinstated", dispute);
  }

  /** Any event, as Stripe would send it (for payloads Stripe could send but the stub never makes). */
  event(type: string, object: unknown): FakeEvent {
    return this.record(type, object);
  }

  /** Sends one event to the webhook endpoint, signed as Stripe signs it; resolves the HTTP status. */
  async deliver(event: FakeEvent, secret = this.webhook?.secret): Promise<number> {
    if (!this.webhook || !secret) throw new Error("no webhook endpoint connected");
    const payload = JSON.stringify(event);
    const response = await fetch(this.webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret }),
      },
      body: payload,
    });
    await response.arrayBuffer();
    return response.status;
  }

  eventsFor(intentId: string, type?: string): FakeEvent[] {
    return this.events.filter((event) => {
      const object = event.data.object as { id?: string; payment_intent?: string };
      const matches = object.id === intentId || object.payment_intent === intentId;
      return matches && (type === undefined || event.type === type);
    });
  }

  private record(type: string, object: unknown): FakeEvent {
    const event: FakeEvent = {
      id: this.id("evt"),
      object: "event",
      type,
      api_version: "2025-01-27.acacia",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      // A snapshot: later changes to the object are later events, as with Stripe.
      data: { object: structuredClone(object) },
    };
    this.events.push(event);
    if (this.autoDeliver && this.webhook) void this.deliver(event).catch(() => undefined);
    return event;
  }

  private requireIntent(intentId: string): FakePaymentIntent {
    const intent = this.paymentIntents.get(intentId);
    if (!intent) throw new Error(`unknown payment intent ${intentId}`);
    return intent;
  }

  private requireCharge(intentId: string): FakeCharge {
    const charge = this.charges.get(this.requireIntent(intentId).latest_charge ?? "");
    if (!charge) throw new Error(`payment intent ${intentId} has no charge`);
    return charge;
  }

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_fake${this.counter}`;
  }

  private async handle(
    request: {
      method: string;
      path: string;
      headers: Record<string, string | string[] | undefined>;
      body: string;
    },
    response: ServerResponse,
  ): Promise<unknown> {
    const url = new URL(request.path, "http://stripe.local");
    const form = new URLSearchParams(request.body);
    const key = request.headers["idempotency-key"];
    const cacheKey = typeof key === "string" ? `${request.method} ${url.pathname} ${key}` : undefined;
    const parts = url.pathname.split("/").filter(Boolean);
    const isCreateIntent = request.method === "POST" && url.pathname === "/v1/payment_intents";
    const reply = (status: number, body: unknown) => {
      if (cacheKey && status < 500) this.idempotentResults.set(cacheKey, { status, body });
      if (isCreateIntent && this.dropPaymentIntentResponses > 0) {
        // The charge is made; only its answer is lost on the way back (a network failure).
        this.dropPaymentIntentResponses -= 1;
        response.destroy();
        return;
      }
      sendJson(response, status, body);
    };
    if (cacheKey && this.idempotentResults.has(cacheKey)) {
      // Stripe answers a retried request with the first answer and does not act again.
      const cached = this.idempotentResults.get(cacheKey) as { status: number; body: unknown };
      return reply(cached.status, cached.body);
    }

    if (request.method === "POST" && url.pathname === "/v1/customers") {
      const customer = {
        id: this.id("cus"),
        object: "customer",
        metadata: { organizationId: form.get("metadata[organizationId]") ?? "" },
      };
      this.customers.set(customer.id, customer);
      return reply(200, customer);
    }
    if (request.method === "POST" && parts[1] === "customers" && parts[2]) {
      return reply(200, { id: parts[2], object: "customer" });
    }
    if (request.method === "POST" && url.pathname === "/v1/setup_intents") {
      const id = this.id("seti");
      const intent: FakeSetupIntent = {
        id,
        object: "setup_intent",
        client_secret: `${id}_secret_fake`,
        customer: form.get("customer") ?? "",
        status: "requires_payment_method",
        payment_method: null,
      };
      this.setupIntents.set(id, intent);
      return reply(200, intent);
    }
    if (request.method === "GET" && parts[1] === "setup_intents" && parts[2]) {
      const intent = this.setupIntents.get(parts[2]);
      if (!intent)
        return reply(404, { error: { type: "invalid_request_error", message: "No such setupintent" } });
      const expandMethod =
        url.searchParams.getAll("expand[]").includes("payment_method") ||
        url.searchParams.get("expand[0]") === "payment_method";
      return reply(200, {
        ...intent,
        payment_method:
          expandMethod && intent.payment_method
            ? this.paymentMethods.get(intent.payment_method)
            : intent.payment_method,
      });
    }
    if (request.method === "POST" && parts[1] === "payment_methods" && parts[3] === "detach") {
      const method = this.paymentMethods.get(parts[2] ?? "");
      if (method) method.customer = null;
      return reply(200, method ?? { id: parts[2] });
    }
    if (request.method === "GET" && url.pathname === "/v1/payment_intents") {
      const customer = url.searchParams.get("customer");
      const since = Number(url.searchParams.get("created[gte]") ?? 0);
      const data = [...this.paymentIntents.values()]
        .filter((intent) => (!customer || intent.customer === customer) && intent.created >= since)
        .reverse();
      return reply(200, { object: "list", url: "/v1/payment_intents", has_more: false, data });
    }
    if (request.method === "GET" && parts[1] === "charges" && parts[2]) {
      const charge = this.charges.get(parts[2]);
      if (!charge) return reply(404, { error: { type: "invalid_request_error", message: "No such charge" } });
      return reply(200, charge);
    }
    if (request.method === "GET" && parts[1] === "payment_intents" && parts[2]) {
      const intent = this.paymentIntents.get(parts[2]);
      if (!intent)
        return reply(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
      return reply(200, intent);
    }
    if (isCreateIntent) {
      const id = this.id("pi");
      const amount = Number(form.get("amount"));
      const customer = form.get("customer") ?? "";
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const field = /^metadata\[(.+)\]$/.exec(name)?.[1];
        if (field) metadata[field] = value;
      }
      const base = { id, object: "payment_intent" as const, amount, currency: "usd" as const, customer };
      const created = Math.floor(Date.now() / 1000);
      if (this.nextPaymentStatus === "card_declined") {
        const intent: FakePaymentIntent = {
          ...base,
          status: "requires_payment_method",
          created,
          metadata,
          latest_charge: null,
        };
        this.paymentIntents.set(id, intent);
        return reply(402, {
          error: {
            type: "card_error",
            code: "card_declined",
            decline_code: "insufficient_funds",
            message: "Your card has insufficient funds.",
            payment_intent: intent,
          },
        });
      }
      const charge: FakeCharge = {
        id: this.id("ch"),
        object: "charge",
        amount,
        amount_refunded: 0,
        refunded: false,
        status: this.nextPaymentStatus === "succeeded" ? "succeeded" : "pending",
        payment_intent: id,
        customer,
        receipt_url: `https://pay.stripe.example/receipts/${id}`,
        metadata: {},
      };
      this.charges.set(charge.id, charge);
      const intent: FakePaymentIntent = {
        ...base,
        status: this.nextPaymentStatus,
        created,
        metadata,
        latest_charge: charge.id,
      };
      this.paymentIntents.set(id, intent);
      if (intent.status === "succeeded") this.record("payment_intent.succeeded", intent);
      const expandCharge = form.getAll("expand[0]").includes("latest_charge");
      // The answer states the intent as it was made, whatever happens before it reaches the caller.
      const answer = structuredClone({
        ...intent,
        latest_charge: expandCharge ? charge : intent.latest_charge,
      });
      if (this.beforePaymentIntentResponse) await this.beforePaymentIntentResponse(intent);
      return reply(200, answer);
    }
    reply(404, {
      error: { type: "invalid_request_error", message: `Unhandled ${request.method} ${url.pathname}` },
    });
  }
}

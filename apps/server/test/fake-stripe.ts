import type { ServerResponse } from "node:http";
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

/**
 * A local stand-in for the Stripe API endpoints the provider uses (customers, setup intents, payment
 * methods, payment intents), speaking Stripe's form-encoded requests and JSON objects so the official
 * SDK talks to it unchanged. `nextPaymentStatus` decides how the next PaymentIntent comes out.
 */
export class FakeStripe {
  server!: LocalServer;
  customers = new Map<string, { id: string; metadata: Record<string, string> }>();
  setupIntents = new Map<string, FakeSetupIntent>();
  paymentMethods = new Map<string, FakePaymentMethod>();
  paymentIntents = new Map<string, { id: string; status: string; amount: number; customer: string }>();
  idempotentResults = new Map<string, unknown>();
  nextPaymentStatus: "succeeded" | "processing" | "card_declined" = "succeeded";
  private counter = 0;

  async start(): Promise<this> {
    this.server = await startLocalServer((request, response) => this.handle(request, response));
    return this;
  }

  get url(): string {
    return this.server.url;
  }

  close(): Promise<void> {
    return this.server.close();
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

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_fake${this.counter}`;
  }

  private handle(
    request: {
      method: string;
      path: string;
      headers: Record<string, string | string[] | undefined>;
      body: string;
    },
    response: ServerResponse,
  ): unknown {
    const url = new URL(request.path, "http://stripe.local");
    const form = new URLSearchParams(request.body);
    const key = request.headers["idempotency-key"];
    const cacheKey = typeof key === "string" ? `${request.method} ${url.pathname} ${key}` : undefined;
    if (cacheKey && this.idempotentResults.has(cacheKey))
      return sendJson(response, 200, this.idempotentResults.get(cacheKey));
    const reply = (status: number, body: unknown) => {
      if (cacheKey && status === 200) this.idempotentResults.set(cacheKey, body);
      sendJson(response, status, body);
    };
    const parts = url.pathname.split("/").filter(Boolean);

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
    if (request.method === "POST" && url.pathname === "/v1/payment_intents") {
      const id = this.id("pi");
      const amount = Number(form.get("amount"));
      const customer = form.get("customer") ?? "";
      if (this.nextPaymentStatus === "card_declined") {
        const intent = { id, object: "payment_intent", status: "requires_payment_method", amount, customer };
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
      const intent = {
        id,
        object: "payment_intent",
        status: this.nextPaymentStatus,
        amount,
        currency: "usd",
        customer,
        latest_charge: {
          id: this.id("ch"),
          object: "charge",
          receipt_url: `https://pay.stripe.example/receipts/${id}`,
        },
      };
      this.paymentIntents.set(id, intent);
      return reply(200, intent);
    }
    reply(404, {
      error: { type: "invalid_request_error", message: `Unhandled ${request.method} ${url.pathname}` },
    });
  }
}

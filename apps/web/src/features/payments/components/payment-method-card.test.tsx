import { ERROR_DIALOGS } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { PaymentMethodCard } from "./payment-method-card";

const confirmSetup = vi.fn();

// Stripe's script cannot load here: its React bindings are replaced by stand-ins that render the
// element at once and let each test decide what the confirmation answers.
vi.mock("@stripe/stripe-js/pure", () => ({ loadStripe: vi.fn(async () => ({})) }));
vi.mock("@stripe/react-stripe-js", async () => {
  const { useEffect } = await import("react");
  return {
    Elements: ({ children }: { children: ReactNode }) => children,
    PaymentElement: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="stripe-payment-element" />;
    },
    useStripe: () => ({ confirmSetup }),
    useElements: () => ({}),
  };
});

const CARD = {
  brand: "mastercard",
  funding: "debit",
  last4: "4444",
  country: "DE",
  expMonth: 3,
  expYear: 2031,
};
const AUTORECHARGE = { enabled: false, threshold: 0, amount: 0 };

function config(provider: "sandbox" | "stripe") {
  return {
    appEnv: "test",
    productName: "Prism",
    recaptcha: null,
    googleClientId: null,
    github: null,
    payments: { provider, publishableKey: provider === "stripe" ? "pk_test_123" : null },
    devMailbox: false,
  };
}

function stubPayments(provider: "sandbox" | "stripe", extra: Parameters<typeof stubApi>[0] = {}) {
  let payment: object = {};
  const stub = stubApi({
    "/v1/public-config": () => ({ body: config(provider) }),
    "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
    "/v1/payments/get-payment-info": () => ({ body: { payment, autorecharge: AUTORECHARGE } }),
    "/v1/payments/start-setup-payment": () => ({ body: { clientSecret: "seti_1_secret_abc" } }),
    "/v1/payments/finish-setup-payment": () => {
      payment = CARD;
      return { body: {} };
    },
    ...extra,
  });
  return stub;
}

afterEach(() => {
  vi.unstubAllGlobals();
  confirmSetup.mockReset();
});

describe("PaymentMethodCard with the Stripe provider", () => {
  it("confirms the setup with Stripe, finishes it on the server and shows the new card", async () => {
    confirmSetup.mockResolvedValue({ setupIntent: { id: "seti_1" } });
    const { bodiesTo } = stubPayments("stripe");
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add a Payment Method" }));
    const dialog = await screen.findByRole("dialog", { name: /Add Payment Method/ });
    expect(within(dialog).queryByText("Sandbox: no real charges")).not.toBeInTheDocument();
    await within(dialog).findByTestId("stripe-payment-element");
    const save = within(dialog).getByRole("button", { name: "Save" });
    await vi.waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    // The organization's first card: the billing step follows, and may be skipped.
    const billing = await screen.findByRole("dialog", { name: "Billing Details" });
    await user.click(within(billing).getByRole("button", { name: "Skip for now" }));

    expect(await screen.findByText("Mastercard •••• 4444")).toBeInTheDocument();
    expect(screen.getByText("Germany")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Mastercard" })).toHaveAttribute("data-brand", "mastercard");
    expect(bodiesTo("/v1/payments/finish-setup-payment")).toEqual([
      { organizationId: "org-1", setupIntentId: "seti_1" },
    ]);
  });

  it("only hides the loader when Stripe refuses the card", async () => {
    confirmSetup.mockResolvedValue({ error: { type: "card_error", message: "Your card was declined." } });
    const { bodiesTo } = stubPayments("stripe");
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add a Payment Method" }));
    const dialog = await screen.findByRole("dialog", { name: /Add Payment Method/ });
    const save = within(dialog).getByRole("button", { name: "Save" });
    await vi.waitFor(() => expect(save).toBeEnabled());
    await user.click(save);

    await vi.waitFor(() => expect(confirmSetup).toHaveBeenCalledTimes(1));
    expect(bodiesTo("/v1/payments/finish-setup-payment")).toEqual([]);
    expect(
      screen.queryByRole("dialog", { name: ERROR_DIALOGS.paymentMethodUpdate.title }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: /Add Payment Method/ })).toBeInTheDocument();
  });
});

describe("PaymentMethodCard with the sandbox provider", () => {
  it("reports a failed setup start with “Payment Method Update Failed”", async () => {
    stubPayments("sandbox", {
      "/v1/payments/start-setup-payment": () => ({
        status: 500,
        body: { error: "internal-error", message: "boom" },
      }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add a Payment Method" }));
    const failure = await screen.findByRole("dialog", { name: ERROR_DIALOGS.paymentMethodUpdate.title });
    expect(failure).toHaveTextContent(ERROR_DIALOGS.paymentMethodUpdate.message);
  });

  it("deletes the saved card after the confirmation", async () => {
    const { bodiesTo } = stubPayments("sandbox", {
      "/v1/payments/get-payment-info": () => ({
        body: {
          payment: bodiesTo("/v1/payments/delete-payment").length ? {} : CARD,
          autorecharge: AUTORECHARGE,
        },
      }),
      "/v1/payments/delete-payment": () => ({ body: {} }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await screen.findByText("Mastercard •••• 4444");
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(await screen.findByRole("button", { name: "Yes, proceed" }));
    expect(await screen.findByText("No payment method yet")).toBeInTheDocument();
    expect(bodiesTo("/v1/payments/delete-payment")).toEqual([{ organizationId: "org-1" }]);
  });
});

async function addSandboxCard(user: ReturnType<typeof userEvent.setup>, number = "4242 4242 4242 4242") {
  await user.click(await screen.findByRole("button", { name: "Add a Payment Method" }));
  const dialog = await screen.findByRole("dialog", { name: /Add Payment Method/ });
  await user.type(within(dialog).getByLabelText("Card number"), number);
  await user.type(within(dialog).getByLabelText("Expiry date"), "1234");
  await user.type(within(dialog).getByLabelText("Security code"), "123");
  await user.click(within(dialog).getByRole("button", { name: "Save" }));
  return dialog;
}

describe("PaymentMethodCard adding a card in the sandbox", { timeout: 40_000 }, () => {
  it("says a declined card in the card form, in the provider's words, and keeps the form open", async () => {
    const { bodiesTo } = stubPayments("sandbox", {
      "/v1/payments/sandbox/confirm-setup": () => ({
        status: 402,
        body: { error: "card-declined", message: "Your card was declined." },
      }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    const dialog = await addSandboxCard(user, "4000 0000 0000 0002");

    await vi.waitFor(() =>
      expect(within(dialog).getByLabelText("Card number")).toHaveAccessibleDescription(
        "Your card was declined.",
      ),
    );
    // No second dialog comes over the form (the error dialog opens within moments when it does).
    await expect(
      screen.findByRole("dialog", { name: ERROR_DIALOGS.paymentMethodUpdate.title }, { timeout: 2_000 }),
    ).rejects.toThrow();
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    expect(bodiesTo("/v1/payments/finish-setup-payment")).toEqual([]);
  });

  it("asks who invoices are addressed to after the organization's first card, and saves it", async () => {
    const { bodiesTo } = stubPayments("sandbox", {
      "/v1/payments/sandbox/confirm-setup": () => ({ body: { setupIntentId: "seti_1" } }),
      "/v1/users/organizations/update-billing": () => ({ body: {} }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await addSandboxCard(user);

    const billing = await screen.findByRole("dialog", { name: "Billing Details" });
    expect(billing).toHaveTextContent(
      "Without billing details, invoices of Acme are addressed to its name alone, with no address or tax ID.",
    );
    const fill = async (field: HTMLElement, text: string) => {
      await user.click(field);
      await user.paste(text);
    };
    await fill(within(billing).getByLabelText(/^Billing Name/), "Acme GmbH");
    await fill(within(billing).getByLabelText(/^Billing Address/), "Hauptstr. 1");
    await fill(within(billing).getByLabelText(/^City/), "Berlin");
    await fill(within(billing).getByLabelText(/^State\/Province/), "Berlin");
    await fill(within(billing).getByLabelText(/^ZIP\/Postal Code/), "10115");
    await fill(within(billing).getByRole("combobox", { name: /^Country/ }), "Germany");
    await user.keyboard("{Enter}");
    await fill(within(billing).getByLabelText(/^Billing Email/), "billing@acme.test");
    await user.click(within(billing).getByRole("button", { name: "Save" }));

    await vi.waitFor(() => expect(screen.queryByRole("dialog", { name: "Billing Details" })).toBeNull());
    expect(bodiesTo("/v1/users/organizations/update-billing")).toEqual([
      {
        organizationId: "org-1",
        billingName: "Acme GmbH",
        billingEmail: "billing@acme.test",
        taxId: null,
        address: "Hauptstr. 1",
        city: "Berlin",
        state: "Berlin",
        zipCode: "10115",
        country: "Germany",
      },
    ]);
    expect(await screen.findByText("Mastercard •••• 4444")).toBeInTheDocument();
  });

  it("lets the billing step be skipped", async () => {
    const { bodiesTo } = stubPayments("sandbox", {
      "/v1/payments/sandbox/confirm-setup": () => ({ body: { setupIntentId: "seti_1" } }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await addSandboxCard(user);
    const billing = await screen.findByRole("dialog", { name: "Billing Details" });
    await user.click(within(billing).getByRole("button", { name: "Skip for now" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(bodiesTo("/v1/payments/finish-setup-payment")).toHaveLength(1);
  });

  it("does not ask for billing details the organization already has", async () => {
    stubPayments("sandbox", {
      "/v1/users/me": () => ({
        body: userWith(
          ownedOrganization({ billingName: "Acme GmbH", address: "Hauptstr. 1", country: "Germany" }),
        ),
      }),
      "/v1/payments/sandbox/confirm-setup": () => ({ body: { setupIntentId: "seti_1" } }),
    });
    renderWithSession(<PaymentMethodCard />);
    const user = userEvent.setup();
    await addSandboxCard(user);
    expect(await screen.findByText("Mastercard •••• 4444")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});

describe("PaymentMethodCard reached from Add a Payment Method", () => {
  it("opens the card dialog on arrival for an organization with no card, once", async () => {
    const { bodiesTo } = stubPayments("sandbox");
    const router = renderWithSession(<PaymentMethodCard />, "/organization/payments", { addCard: true });
    await screen.findByRole("dialog", { name: /Add Payment Method/ });
    expect(bodiesTo("/v1/payments/start-setup-payment")).toEqual([{ organizationId: "org-1" }]);
    // The request is used up: a reload of the page does not open the dialog again.
    await vi.waitFor(() => expect(router.state.location.state).toBeNull());
  });

  it("opens nothing when the organization already has a card", async () => {
    const { bodiesTo } = stubPayments("sandbox", {
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
    });
    renderWithSession(<PaymentMethodCard />, "/organization/payments", { addCard: true });
    await screen.findByText("Mastercard •••• 4444");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(bodiesTo("/v1/payments/start-setup-payment")).toEqual([]);
  });
});

describe("PaymentMethodCard on the home page", () => {
  it("offers Add in the empty state, opening the add-card form there", async () => {
    const { bodiesTo } = stubPayments("sandbox");
    renderWithSession(<PaymentMethodCard withActions={false} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add" }));
    await screen.findByRole("dialog", { name: /Add Payment Method/ });
    expect(bodiesTo("/v1/payments/start-setup-payment")).toEqual([{ organizationId: "org-1" }]);
  });
});

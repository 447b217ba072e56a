import {
  ERROR_DIALOGS,
  PAYMENT_METHOD_REQUIRED,
  PAYMENT_UNCONFIRMED,
  RECHARGE_SUCCESSFUL,
} from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { RechargePanel } from "./recharge-panel";

const CARD = { brand: "visa", funding: "credit", last4: "4242", country: "US", expMonth: 12, expYear: 2034 };
const AUTORECHARGE = { enabled: false, threshold: 0, amount: 0 };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("RechargePanel", () => {
  it("is disabled with “Please add a Payment Method first” while no card is saved", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: {}, autorecharge: AUTORECHARGE } }),
    });
    renderWithSession(<RechargePanel />);
    const button = await screen.findByRole("button", { name: PAYMENT_METHOD_REQUIRED });
    expect(button).toBeDisabled();
  });

  it("confirms the amount, charges it, follows the new balance and says “Recharge Successful!”", async () => {
    let balance = 0;
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance })) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
      "/v1/payments/recharge-account": (body) => {
        balance += Number(body.amount);
        return { body: {} };
      },
    });
    renderWithSession(<RechargePanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Recharge Now" }));

    const confirm = await screen.findByRole("dialog", { name: "Recharge" });
    expect(within(confirm).getByText("Are you sure you want to recharge $100?")).toBeInTheDocument();
    await user.click(within(confirm).getByRole("button", { name: "Yes" }));

    expect(await screen.findByText(RECHARGE_SUCCESSFUL)).toBeInTheDocument();
    expect(bodiesTo("/v1/payments/recharge-account")).toEqual([{ organizationId: "org-1", amount: 100 }]);
    expect(screen.getByTestId("session-balance")).toHaveTextContent("100");
    expect(screen.getByTestId("recharge-panel-balance")).toHaveTextContent("$100.00");
  });

  it("raises an amount under the minimum to it on leaving the field, says so beside it, and charges that", async () => {
    let balance = 0;
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance })) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
      "/v1/payments/recharge-account": (body) => {
        balance += Number(body.amount);
        return { body: {} };
      },
    });
    renderWithSession(<RechargePanel />);
    const user = userEvent.setup();
    const button = await screen.findByRole("button", { name: "Recharge Now" });
    await waitFor(() => expect(button).toBeEnabled());
    const amount = screen.getByLabelText("Amount");
    await user.clear(amount);
    await user.type(amount, "5");
    expect(amount).toHaveValue("$5");
    await user.tab();
    expect(amount).toHaveValue("$20");
    expect(amount).not.toHaveAttribute("aria-invalid", "true");
    expect(amount).toHaveAccessibleDescription(/Raised to the \$20 minimum\./);
    expect(bodiesTo("/v1/payments/recharge-account")).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Recharge Now" }));
    const confirm = await screen.findByRole("dialog", { name: "Recharge" });
    expect(within(confirm).getByText("Are you sure you want to recharge $20?")).toBeInTheDocument();
    await user.click(within(confirm).getByRole("button", { name: "Yes" }));
    await screen.findByText(RECHARGE_SUCCESSFUL);
    expect(bodiesTo("/v1/payments/recharge-account")).toEqual([{ organizationId: "org-1", amount: 20 }]);
  });

  it("refuses an amount above the maximum with the reason beside the field, and charges nothing", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
      "/v1/payments/recharge-account": () => ({ body: {} }),
    });
    renderWithSession(<RechargePanel />);
    const user = userEvent.setup();
    const button = await screen.findByRole("button", { name: "Recharge Now" });
    await waitFor(() => expect(button).toBeEnabled());
    const amount = screen.getByLabelText("Amount");
    await user.clear(amount);
    await user.type(amount, "20000");
    await user.tab();
    // Kept as typed, never lowered to $10,000 behind the user's back.
    expect(amount).toHaveValue("$20,000");
    expect(amount).toHaveAttribute("aria-invalid", "true");
    expect(amount).toHaveAccessibleDescription(/The maximum is \$10,000\. Please enter a smaller amount\./);

    await user.click(button);
    expect(screen.queryByRole("dialog", { name: "Recharge" })).toBeNull();
    expect(bodiesTo("/v1/payments/recharge-account")).toEqual([]);

    // A smaller amount takes the reason away.
    await user.clear(amount);
    await user.type(amount, "500");
    expect(amount).not.toHaveAttribute("aria-invalid", "true");
  });

  it("shows “Error Recharging” with the provider's reason when the charge fails", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
      "/v1/payments/recharge-account": () => ({
        status: 402,
        body: { error: "payment-failed", message: "Your card has insufficient funds." },
      }),
    });
    renderWithSession(<RechargePanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Recharge Now" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Recharge" })).getByRole("button", { name: "Yes" }),
    );
    const failure = await screen.findByRole("dialog", { name: ERROR_DIALOGS.recharge.title });
    expect(failure).toHaveTextContent(ERROR_DIALOGS.recharge.message);
    expect(failure).toHaveTextContent("Your card has insufficient funds.");
  });

  it("says a payment whose answer was lost may still be credited, so the user checks before paying again", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge: AUTORECHARGE } }),
      "/v1/payments/recharge-account": () => ({
        status: 502,
        body: { error: "payment-unconfirmed", message: PAYMENT_UNCONFIRMED },
      }),
    });
    renderWithSession(<RechargePanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Recharge Now" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Recharge" })).getByRole("button", { name: "Yes" }),
    );
    const failure = await screen.findByRole("dialog", { name: ERROR_DIALOGS.recharge.title });
    expect(failure).toHaveTextContent(PAYMENT_UNCONFIRMED);
  });
});

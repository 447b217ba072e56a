import { DEFAULT_RECHARGE_USD, MIN_RECHARGE_USD } from "@prism/contract";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { AutoRechargeCard } from "./auto-recharge-card";

const CONFIG = {
  appEnv: "test",
  productName: "Prism",
  recaptcha: null,
  googleClientId: null,
  github: null,
  payments: { provider: "sandbox", publishableKey: null },
  devMailbox: false,
};
const CARD = {
  brand: "mastercard",
  funding: "debit",
  last4: "4444",
  country: "DE",
  expMonth: 3,
  expYear: 2031,
};

afterEach(() => vi.unstubAllGlobals());

describe("AutoRechargeCard", () => {
  it("starts from usable amounts when turned on, raises a small amount to the minimum, and saves", async () => {
    let autorecharge: object = { enabled: false, threshold: 0, amount: 0 };
    const { bodiesTo } = stubApi({
      "/v1/public-config": () => ({ body: CONFIG }),
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-payment-info": () => ({ body: { payment: CARD, autorecharge } }),
      "/v1/payments/update-auto-recharge": ({ organizationId: _, ...saved }) => {
        autorecharge = saved;
        return { body: {} };
      },
    });
    renderWithSession(<AutoRechargeCard />);
    const user = userEvent.setup();
    const enable = () => screen.getByRole("checkbox", { name: /Enable auto recharge/ });
    const threshold = () => screen.getByLabelText(/^Threshold/);
    const amount = () => screen.getByLabelText(/^Amount/);
    const saves = () => bodiesTo("/v1/payments/update-auto-recharge");

    await screen.findByRole("checkbox", { name: /Enable auto recharge/ });
    expect(threshold()).toBeDisabled();
    await user.click(enable());
    expect(threshold()).toHaveValue(`$${MIN_RECHARGE_USD}`);
    expect(amount()).toHaveValue(`$${DEFAULT_RECHARGE_USD}`);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toMatchObject({
      enabled: true,
      threshold: MIN_RECHARGE_USD,
      amount: DEFAULT_RECHARGE_USD,
    });

    await waitFor(() => expect(amount()).toBeEnabled());
    await user.clear(amount());
    await user.type(amount(), "5");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]).toMatchObject({ enabled: true, amount: MIN_RECHARGE_USD });
    await waitFor(() => expect(amount()).toHaveValue(`$${MIN_RECHARGE_USD}`));

    await user.click(enable());
    expect(threshold()).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saves()).toHaveLength(3));
    expect(saves()[2]).toMatchObject({
      enabled: false,
      threshold: MIN_RECHARGE_USD,
      amount: MIN_RECHARGE_USD,
    });
  });
});

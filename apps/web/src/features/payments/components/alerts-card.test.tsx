import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { AlertsCard } from "./alerts-card";

const CONFIG = {
  appEnv: "test",
  productName: "Prism",
  recaptcha: null,
  googleClientId: null,
  github: null,
  payments: { provider: "sandbox", publishableKey: null },
  devMailbox: false,
};

afterEach(() => vi.unstubAllGlobals());

describe("AlertsCard", () => {
  it("saves the thresholds, offers the hard stop only with a budget, and turns an emptied field off", async () => {
    let saved: object = { lowBalance: null, monthlyBudget: null, budgetHardStop: false };
    const { bodiesTo } = stubApi({
      "/v1/public-config": () => ({ body: CONFIG }),
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/payments/get-alerts": () => ({ body: { ...saved, monthSpend: 3 } }),
      "/v1/payments/update-alerts": ({ organizationId: _, ...settings }) => {
        saved = settings;
        return { body: {} };
      },
    });
    renderWithSession(<AlertsCard />);
    const user = userEvent.setup();
    const hardStop = () => screen.getByRole("checkbox", { name: /Stop calls/ });

    await user.type(await screen.findByLabelText("Low balance alert"), "10");
    expect(hardStop()).toBeDisabled();
    await user.type(screen.getByLabelText("Monthly budget"), "100");
    expect(hardStop()).toBeEnabled();
    await user.click(hardStop());
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(bodiesTo("/v1/payments/update-alerts")).toHaveLength(1));
    expect(bodiesTo("/v1/payments/update-alerts")[0]).toMatchObject({
      lowBalance: 10,
      monthlyBudget: 100,
      budgetHardStop: true,
    });

    await waitFor(() => expect(screen.getByLabelText("Monthly budget")).toHaveValue("$100"));
    await user.clear(screen.getByLabelText("Monthly budget"));
    expect(hardStop()).toBeDisabled();
    await user.clear(screen.getByLabelText("Low balance alert"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(bodiesTo("/v1/payments/update-alerts")).toHaveLength(2));
    expect(bodiesTo("/v1/payments/update-alerts")[1]).toMatchObject({
      lowBalance: null,
      monthlyBudget: null,
    });
  });
});

import { ERROR_DIALOGS } from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { BillingPage } from "./billing-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const COMPLETE = {
  billingName: "Acme Inc.",
  billingEmail: "billing@acme.test",
  address: "1 Main Street",
  city: "Berlin",
  state: "Berlin",
  zipCode: "10115",
  country: "Germany",
};

describe("BillingPage", { timeout: 30_000 }, () => {
  it("marks every missing field beside it and sends nothing", async () => {
    const api = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organizations/update-billing": () => ({ body: {} }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Billing Name/), "Acme Inc.");
    await user.click(screen.getByRole("button", { name: "Save" }));

    for (const [label, message] of [
      [/^Billing Address/, "Billing Address is required."],
      [/^City/, "City is required."],
      [/^State\/Province/, "State/Province is required."],
      [/^ZIP\/Postal Code/, "ZIP/Postal Code is required."],
      [/^Billing Email/, "Billing Email is required."],
    ] as const) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(message);
    }
    expect(screen.getByRole("combobox", { name: /^Country/ })).toHaveAccessibleDescription(
      "Country is required.",
    );
    expect(screen.getByLabelText(/^Billing Name/)).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText(/^Tax ID/)).not.toHaveAccessibleDescription();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(api.bodiesTo("/v1/users/organizations/update-billing")).toEqual([]);

    // Changing a field takes its hint away.
    await user.type(screen.getByLabelText(/^City/), "Berlin");
    expect(screen.getByLabelText(/^City/)).not.toHaveAccessibleDescription();
  });

  it("picks the only country left by the search on Enter instead of submitting the form", async () => {
    const api = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organizations/update-billing": () => ({ body: {} }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    const country = await screen.findByRole("combobox", { name: /^Country/ });
    await user.type(country, "United Kingdom");
    await user.keyboard("{Enter}");

    expect(country).toHaveValue("United Kingdom");
    await user.tab();
    expect(country).toHaveValue("United Kingdom");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(api.bodiesTo("/v1/users/organizations/update-billing")).toEqual([]);
  });

  it("saves complete details once", async () => {
    const api = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization(COMPLETE)) }),
      "/v1/users/organizations/update-billing": () => ({ body: {} }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await screen.findByDisplayValue("Acme Inc.");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("Changes have been saved!");
    expect(api.bodiesTo("/v1/users/organizations/update-billing")).toEqual([
      { organizationId: "org-1", ...COMPLETE, taxId: null },
    ]);
  });

  it("marks a field the server refuses beside it, without the dialog", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization(COMPLETE)) }),
      "/v1/users/organizations/update-billing": () => ({
        status: 400,
        body: { error: "invalid-input", field: "zipCode", message: "zipCode: Too long for this country" },
      }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await screen.findByDisplayValue("Acme Inc.");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^ZIP\/Postal Code/)).toHaveAccessibleDescription(
        "ZIP/Postal Code: Too long for this country",
      ),
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("keeps the spec's Error dialog for a server that fails", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization(COMPLETE)) }),
      "/v1/users/organizations/update-billing": () => ({
        status: 500,
        body: { error: "internal-error", message: "boom" },
      }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await screen.findByDisplayValue("Acme Inc.");
    await user.click(screen.getByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.updateBilling.title });
    expect(dialog).toHaveTextContent(ERROR_DIALOGS.updateBilling.message);
    expect(within(dialog).getByRole("button", { name: "Close" })).toBeInTheDocument();
  });
});

import { ERROR_DIALOGS, REQUIRED_FIELDS_MISSING } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { BillingPage } from "./billing-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("BillingPage", { timeout: 20_000 }, () => {
  it("shows the spec's Error dialog when the server refuses, with the missing field marked beside it", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organizations/update-billing": () => ({
        status: 400,
        body: { error: "invalid-input", field: "city", message: `city: ${REQUIRED_FIELDS_MISSING}` },
      }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Billing Name/), "Acme Inc.");
    await user.click(screen.getByRole("button", { name: "Save" }));

    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.updateBilling.title });
    expect(dialog).toHaveTextContent(
      "There was an error updating the organization. Please try again later or contact support.",
    );
    expect(within(dialog).queryByText("City is required.")).toBeNull();
    // The hint sits beside the field it is about.
    expect(screen.getByLabelText(/^City/)).toHaveAccessibleDescription("City is required.");

    // Changing the field takes its hint away; the other fields never had one.
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await user.type(screen.getByLabelText(/^City/), "Berlin");
    expect(screen.getByLabelText(/^City/)).not.toHaveAccessibleDescription("City is required.");
  });

  it("shows the same dialog when the server fails", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organizations/update-billing": () => ({
        status: 500,
        body: { error: "internal-error", message: "boom" },
      }),
    });
    renderWithSession(<BillingPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog", { name: "Error" });
    expect(dialog).toHaveTextContent(ERROR_DIALOGS.updateBilling.message);
  });
});

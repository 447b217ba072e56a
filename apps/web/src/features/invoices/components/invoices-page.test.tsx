import { INVOICES_EMPTY } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { InvoicesPage } from "./invoices-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

function invoicesPage(page: number, totalPages: number) {
  return {
    invoices: Array.from({ length: 10 }, (_, index) => {
      const number = (page - 1) * 10 + index + 1;
      return {
        id: `inv-${number}`,
        invoiceId: `INV-${String(number).padStart(6, "0")}`,
        amount: 20 + number / 100,
        createdAt: "2026-11-03T23:30:00.000Z",
      };
    }),
    totalPages,
    currentPage: page,
  };
}

describe("InvoicesPage", () => {
  it("lists the invoices with status, amount and UTC date, and pages with the windowed pager", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/invoices/get": (body) => ({ body: invoicesPage(Number(body.page), 12) }),
    });
    const router = renderWithSession(<InvoicesPage />, "/organization/invoices");
    const user = userEvent.setup();

    const first = (await screen.findAllByTestId("invoice-row"))[0];
    if (!first) throw new Error("no invoice row");
    expect(within(first).getByText("INV-000001")).toBeInTheDocument();
    expect(within(first).getByText("Paid")).toBeInTheDocument();
    expect(within(first).getByText("$20.01")).toBeInTheDocument();
    expect(within(first).getByText("Nov 03, 2026")).toBeInTheDocument();

    const pager = screen.getByRole("navigation", { name: "Pagination" });
    const pageLabels = () =>
      within(pager)
        .getAllByRole("button", { name: /^Page / })
        .map((button) => button.textContent);
    expect(pageLabels()).toEqual(["1", "2", "3", "12"]);
    expect(within(pager).getByRole("button", { name: "Previous" })).toBeDisabled();

    await user.click(within(pager).getByRole("button", { name: "Page 3" }));
    expect(await screen.findByText("INV-000021")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?page=3");
    expect(pageLabels()).toEqual(["1", "2", "3", "4", "5", "12"]);
    expect(bodiesTo("/v1/users/invoices/get").map((body) => body.page)).toEqual([1, 3]);
  });

  it("shows the spec's empty text when there are no invoices", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/invoices/get": () => ({ body: { invoices: [], totalPages: 0, currentPage: 1 } }),
    });
    renderWithSession(<InvoicesPage />, "/organization/invoices");
    expect(await screen.findByText(INVOICES_EMPTY)).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });
});

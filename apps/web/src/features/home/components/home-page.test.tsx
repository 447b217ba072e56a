import {
  backgroundRemovalFeature,
  EXPORT_CSV_LABEL,
  EXPORT_SUMMARY_LABEL,
  imageGenerationFeature,
  statisticsQueryDate,
  USAGE_EXPORT_PATH,
  USAGE_SUMMARY_EXPORT_PATH,
} from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMonth } from "../../../lib/format";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { shiftMonth } from "../lib/usage";
import { HomePage } from "./home-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const SLOW = { timeout: 5_000 };

const STATISTICS = {
  statistics: [
    {
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      recordDate: "2026-11-03",
      unitsUsed: 2,
      balanceUsed: 0.02,
    },
  ],
  endpoints: [
    {
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      name: "Background Removal",
      orderPos: 60,
    },
  ],
};

/** A row of the usage table once the statistics arrived (the table is drawn anew when they do). */
function usageRow(name: string): Promise<HTMLElement> {
  return waitFor(
    () => within(screen.getByTestId("usage-table")).getByText(name).closest("tr") as HTMLElement,
    SLOW,
  );
}

function pickerTexts(): string[] {
  return screen.getAllByTestId("month-picker").map((picker) => picker.textContent ?? "");
}

const ALL_STEPS = { cardAdded: true, recharged: true, apiKeyCreated: true, apiCallMade: true };
const NO_STEPS = { cardAdded: false, recharged: false, apiKeyCreated: false, apiCallMade: false };

describe("Home's first steps", () => {
  afterEach(() => localStorage.clear());

  it("lists the four steps of a new organization, ticks those done, and gives a ready first call", async () => {
    const steps = { ...NO_STEPS, cardAdded: true };
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: [] } }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
      "/v1/users/organizations/first-steps": () => ({ body: steps }),
    });
    renderWithSession(<HomePage />);
    const card = await screen.findByRole("region", { name: "First steps" }, SLOW);
    const items = within(card).getAllByTestId("first-step");
    expect(items.map((item) => item.getAttribute("data-done"))).toEqual(["true", "false", "false", "false"]);
    expect(card).toHaveTextContent("1 of 4 done");
    const code = within(card).getByTestId("first-call-code").textContent ?? "";
    expect(code).toContain(`curl -o cat.jpg '${window.location.origin}/samples/cat.jpg'`);
    expect(code).toContain(`${window.location.origin}/v1/images/background-removal`);
    expect(code).toContain('-H "Authorization: Bearer $PRISM_API_KEY"');
    expect(code).toContain("-F 'image=@cat.jpg'");

    // A done step offers nothing more; the others lead where they are done.
    expect(within(items[0] as HTMLElement).queryByRole("button")).toBeNull();
    expect(within(items[1] as HTMLElement).getByRole("link", { name: "Recharge" })).toHaveAttribute(
      "href",
      "/organization/payments",
    );
    expect(within(items[2] as HTMLElement).getByRole("link", { name: "Create a key" })).toHaveAttribute(
      "href",
      "/projects/api-keys",
    );
  }, 20_000);

  it("takes “Add a card” to Payments with the card dialog asked for", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: [] } }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
      "/v1/users/organizations/first-steps": () => ({ body: NO_STEPS }),
    });
    const router = renderWithSession(<HomePage />);
    const card = await screen.findByRole("region", { name: "First steps" }, SLOW);
    await userEvent.setup().click(within(card).getByRole("button", { name: "Add a card" }));
    expect(router.state.location.pathname).toBe("/organization/payments");
    expect(router.state.location.state).toEqual({ addCard: true });
  }, 20_000);

  it("goes away when hidden, and stays hidden for this organization", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: [] } }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
      "/v1/users/organizations/first-steps": () => ({ body: NO_STEPS }),
    });
    renderWithSession(<HomePage />);
    const card = await screen.findByRole("region", { name: "First steps" }, SLOW);
    await userEvent.setup().click(within(card).getByRole("button", { name: "Hide" }));
    expect(screen.queryByRole("region", { name: "First steps" })).toBeNull();
    expect(localStorage.getItem("firstStepsDismissed:org-1")).toBe("true");
  }, 20_000);

  it("is not shown once every step is done", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: [] } }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
      "/v1/users/organizations/first-steps": () => ({
        body: { cardAdded: true, recharged: true, apiKeyCreated: true, apiCallMade: true },
      }),
    });
    renderWithSession(<HomePage />);
    await waitFor(() => expect(bodiesTo("/v1/users/organizations/first-steps")).toHaveLength(1), SLOW);
    await screen.findAllByText(/^No usage in /);
    expect(screen.queryByRole("region", { name: "First steps" })).toBeNull();
  }, 20_000);
});

describe("HomePage", () => {
  it("drives the whole page with one month picker, in the console's month format", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: STATISTICS }),
      "/v1/users/organizations/first-steps": () => ({ body: ALL_STEPS }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    const now = new Date();
    const thisMonth = { year: now.getFullYear(), month: now.getMonth() + 1 };
    const previous = shiftMonth(thisMonth, -1);

    await usageRow("Background Removal");
    expect(pickerTexts()).toEqual([formatMonth(thisMonth)]);
    expect(bodiesTo("/v1/users/statistics/get").at(-1)?.queryDate).toBe(
      statisticsQueryDate(thisMonth.year, thisMonth.month),
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Month: previous month" }));
    await waitFor(() => expect(pickerTexts()).toEqual([formatMonth(previous)]), SLOW);
    await waitFor(
      () =>
        expect(bodiesTo("/v1/users/statistics/get").at(-1)?.queryDate).toBe(
          statisticsQueryDate(previous.year, previous.month),
        ),
      SLOW,
    );
    expect(bodiesTo("/v1/users/statistics/get").at(-1)?.projectIds).toEqual([
      "11111111-1111-4111-8111-111111111111",
    ]);
  }, 20_000);

  it("stacks the features' cost per day, names the unit of one feature's bars, and totals in cents", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: STATISTICS }),
      "/v1/users/organizations/first-steps": () => ({ body: ALL_STEPS }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    const row = await usageRow("Background Removal");
    const month = new Date().toLocaleString("en-US", { month: "long", year: "numeric" });
    expect(screen.getByTestId("usage-chart-caption")).toHaveTextContent(
      `Cost per day of ${month}, by feature`,
    );
    // The table's cost column keeps the spec's 3 decimals; the total is money, with 2.
    expect(within(row).getByText("$0.020")).toBeInTheDocument();
    expect(screen.getByTestId("total-cost")).toHaveTextContent(/^\$0\.02$/);

    const user = userEvent.setup();
    await user.click(screen.getByRole("combobox", { name: "Feature" }));
    await user.click(await screen.findByRole("option", { name: "Background Removal", hidden: true }));
    await waitFor(() =>
      expect(screen.getByTestId("usage-chart-caption")).toHaveTextContent(`Calls per day of ${month}`),
    );
  }, 20_000);

  it("shows a friendly empty state and no pie for a month without usage", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: STATISTICS.endpoints } }),
      "/v1/users/organizations/first-steps": () => ({ body: ALL_STEPS }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    expect((await screen.findAllByText(/^No usage in /)).length).toBeGreaterThan(0);
    expect(screen.queryByTestId("usage-pie")).not.toBeInTheDocument();
    expect(screen.getByTestId("total-cost")).toHaveTextContent(/^\$0\.00$/);
  });

  it("says what a unit is for each feature and marks it with its chart colour", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({
        body: {
          statistics: [
            ...STATISTICS.statistics,
            {
              endpoint: "/v1/images/generation",
              callType: "generation",
              recordDate: "2026-11-04",
              unitsUsed: 1,
              balanceUsed: 0.02,
            },
          ],
          endpoints: [
            ...STATISTICS.endpoints,
            {
              endpoint: "/v1/images/generation",
              callType: "generation",
              name: "Image Generation",
              orderPos: 130,
            },
          ],
        },
      }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    const removal = await usageRow("Background Removal");
    const generation = await usageRow("Image Generation");
    expect(within(removal).getByText("2 calls")).toBeInTheDocument();
    expect(within(generation).getByText("1 image")).toBeInTheDocument();
    expect(within(removal).getByTestId("feature-swatch")).toHaveStyle({
      backgroundColor: backgroundRemovalFeature.color,
    });
    expect(within(generation).getByTestId("feature-swatch")).toHaveStyle({
      backgroundColor: imageGenerationFeature.color,
    });
  }, 20_000);

  it("offers Export CSV of the selected month and projects, and the per-day-per-feature summary", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: STATISTICS }),
      "/v1/users/organizations/first-steps": () => ({ body: ALL_STEPS }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    await usageRow("Background Removal");
    const now = new Date();
    const previous = shiftMonth({ year: now.getFullYear(), month: now.getMonth() + 1 }, -1);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Month: previous month" }));
    await waitFor(() => expect(pickerTexts()).toEqual([formatMonth(previous)]), SLOW);
    await usageRow("Background Removal");

    const monthText = `${previous.year}-${String(previous.month).padStart(2, "0")}`;
    const query = `month=${monthText}&projectIds=11111111-1111-4111-8111-111111111111`;
    const calls = screen.getByRole("link", { name: EXPORT_CSV_LABEL });
    expect(calls).toHaveAttribute("href", `${USAGE_EXPORT_PATH}?${query}`);
    expect(calls).toHaveAttribute("download", `prism-usage-${monthText}-calls.csv`);
    const summary = screen.getByRole("link", { name: EXPORT_SUMMARY_LABEL });
    expect(summary).toHaveAttribute("href", `${USAGE_SUMMARY_EXPORT_PATH}?${query}`);
    expect(summary).toHaveAttribute("download", `prism-usage-${monthText}-summary.csv`);
  }, 20_000);
});

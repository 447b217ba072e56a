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
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { formatYearMonth, shiftMonth } from "../lib/usage";
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

describe("HomePage", () => {
  it("keeps the three month pickers in sync and reloads the statistics for the chosen month", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: STATISTICS }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    const now = new Date();
    const thisMonth = { year: now.getFullYear(), month: now.getMonth() + 1 };
    const previous = shiftMonth(thisMonth, -1);
    const twoBack = shiftMonth(thisMonth, -2);

    await usageRow("Background Removal");
    expect(pickerTexts()).toEqual(Array(3).fill(formatYearMonth(thisMonth)));
    expect(bodiesTo("/v1/users/statistics/get").at(-1)?.queryDate).toBe(
      statisticsQueryDate(thisMonth.year, thisMonth.month),
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Chart month: previous month" }));
    await waitFor(() => expect(pickerTexts()).toEqual(Array(3).fill(formatYearMonth(previous))), SLOW);
    await waitFor(
      () =>
        expect(bodiesTo("/v1/users/statistics/get").at(-1)?.queryDate).toBe(
          statisticsQueryDate(previous.year, previous.month),
        ),
      SLOW,
    );

    await user.click(screen.getByRole("button", { name: "Table month: previous month" }));
    await waitFor(() => expect(pickerTexts()).toEqual(Array(3).fill(formatYearMonth(twoBack))), SLOW);
    await waitFor(
      () =>
        expect(bodiesTo("/v1/users/statistics/get").at(-1)?.queryDate).toBe(
          statisticsQueryDate(twoBack.year, twoBack.month),
        ),
      SLOW,
    );
    expect(bodiesTo("/v1/users/statistics/get").at(-1)?.projectIds).toEqual([
      "11111111-1111-4111-8111-111111111111",
    ]);
  }, 20_000);

  it("shows a friendly empty state and no pie for a month without usage", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/statistics/get": () => ({ body: { statistics: [], endpoints: STATISTICS.endpoints } }),
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    expect((await screen.findAllByText(/^No usage in /)).length).toBeGreaterThan(0);
    expect(screen.queryByTestId("usage-pie")).not.toBeInTheDocument();
    expect(screen.getByTestId("total-cost")).toHaveTextContent("$0.000");
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
      "/v1/payments/get-payment-info": () => ({
        body: { payment: {}, autorecharge: { enabled: false, threshold: 0, amount: 0 } },
      }),
    });
    renderWithSession(<HomePage />);
    await usageRow("Background Removal");
    const now = new Date();
    const previous = shiftMonth({ year: now.getFullYear(), month: now.getMonth() + 1 }, -1);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Usage month: previous month" }));
    await waitFor(() => expect(pickerTexts()).toEqual(Array(3).fill(formatYearMonth(previous))), SLOW);
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

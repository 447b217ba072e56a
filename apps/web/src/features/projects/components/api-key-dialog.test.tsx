import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { fullPermissions, NAME_REQUIRED, NO_API_KEY_LIMITS, type Organization } from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../../lib/session";
import { SessionContext } from "../../../lib/session/session-context";
import { routeCalls } from "../../../test/msw";
import { ApiKeysPage } from "./api-keys-page";

const project = { id: "p1", name: "Default Project", organizationId: "o1" };

const limitedKey = {
  id: "k1",
  name: "Contractor",
  lastFourDigits: "a1b2",
  lastUsed: "2026-11-03T16:05:00.000Z",
  creationDate: "2026-11-03T16:05:00.000Z",
  creationUserFirstName: "Ada",
  creationUserLastName: "Lovelace",
  limits: {
    ...NO_API_KEY_LIMITS,
    endpoints: ["/v1/images/background-removal"],
    monthlySpendCap: 20,
    allowedIps: ["203.0.113.7"],
  },
  spendThisMonth: 0.03,
  expired: false,
};

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

function renderPage(apiKeys: unknown[]) {
  const { sent } = routeCalls(({ path }) => {
    if (path.endsWith("/api-keys/list")) return json({ apiKeys });
    if (path.endsWith("/api-keys/insert")) {
      return json({ apiKey: { ...limitedKey, id: "k2", name: "New", content: "psk_secret" } });
    }
    if (path.endsWith("/api-keys/details")) {
      return json({
        apiKey: limitedKey,
        spendLifetime: 0.05,
        recentCalls: [
          {
            requestId: "r1",
            endpoint: "/v1/images/background-removal",
            status: "done",
            cost: 0.01,
            createdAt: "2026-11-03T16:05:00.000Z",
            clientIp: "203.0.113.7",
          },
        ],
      });
    }
    return json({});
  });
  const organization = {
    id: "o1",
    name: "Acme",
    balance: 0,
    projects: [project],
    permissions: fullPermissions(true),
    properties: { isNew: false },
  } as unknown as Organization;
  const session = {
    status: "signed-in",
    userInfo: null,
    selectedOrganization: organization,
    selectedProject: project,
  } as unknown as Session;
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={new QueryClient()}>
        <SessionContext.Provider value={session}>
          <ModalsProvider>
            <MemoryRouter>
              <ApiKeysPage />
            </MemoryRouter>
          </ModalsProvider>
        </SessionContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  const bodyOf = (suffix: string) => sent.find((call) => call.path.endsWith(suffix))?.body;
  return { bodyOf, sent };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("API key dialog, table and drawer", { timeout: 30_000 }, () => {
  it("shows a key's limits and its spend this month compactly in the table", async () => {
    renderPage([
      limitedKey,
      { ...limitedKey, id: "k3", name: "Old", limits: NO_API_KEY_LIMITS, expired: true },
    ]);
    const rows = await screen.findAllByTestId("api-key-row");
    expect(within(rows[0] as HTMLElement).getByText("Background Removal")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("$20.00/month")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("203.0.113.7")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByTestId("api-key-spend")).toHaveTextContent("$0.03 of $20.00");
    expect(within(rows[1] as HTMLElement).getByText("Expired")).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText("No limits")).toBeInTheDocument();
  });

  it("creates a key limited to chosen features, a monthly cap and an office address", async () => {
    const { bodyOf } = renderPage([]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Create New" }));
    const dialog = await screen.findByRole("dialog", { name: "Create New API Key" });
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect(await within(dialog).findByText(NAME_REQUIRED)).toBeInTheDocument();
    await user.type(within(dialog).getByRole("textbox", { name: "Name" }), "Contractor");
    await user.click(within(dialog).getByRole("checkbox", { name: "All features" }));
    await user.click(within(dialog).getByLabelText("Features"));
    await user.click(await screen.findByRole("option", { name: "Background Removal", hidden: true }));
    await user.type(within(dialog).getByRole("textbox", { name: "Monthly spend cap (USD)" }), "20");
    await user.type(within(dialog).getByLabelText("Allowed IP addresses"), "203.0.113.7{Enter}");
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect(await screen.findByTestId("api-key-content")).toBeInTheDocument();
    expect(bodyOf("/api-keys/insert")).toEqual({
      projectId: "p1",
      apiKeyName: "Contractor",
      limits: {
        endpoints: ["/v1/images/background-removal"],
        monthlySpendCap: 20,
        lifetimeSpendCap: null,
        expiresAt: null,
        allowedIps: ["203.0.113.7"],
        requestsPerMinute: null,
      },
    });
  });

  it("refuses an address that is not an IP or CIDR range before sending anything", async () => {
    const { sent } = renderPage([]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Create New" }));
    const dialog = await screen.findByRole("dialog", { name: "Create New API Key" });
    await user.type(within(dialog).getByRole("textbox", { name: "Name" }), "Bad");
    await user.type(within(dialog).getByLabelText("Allowed IP addresses"), "office{Enter}");
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect(await within(dialog).findByText(/Enter IP addresses or CIDR ranges/)).toBeInTheDocument();
    expect(sent.some((call) => call.path.endsWith("/insert"))).toBe(false);
  });

  it("edits a key's limits with the same dialog, starting from its current ones", async () => {
    const { bodyOf } = renderPage([limitedKey]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Edit limits of Contractor" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit API Key" });
    const cap = within(dialog).getByRole("textbox", { name: "Monthly spend cap (USD)" });
    expect(cap).toHaveValue("$20");
    await user.clear(cap);
    await user.type(cap, "5");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    // Finding the toast is the check: it closes itself after 3 s (spec), which on a loaded machine can
    // fall between finding it and reading the document again.
    await screen.findByText("Changes have been saved!");
    expect(bodyOf("/api-keys/update")).toEqual({
      projectId: "p1",
      apiKeyId: "k1",
      apiKeyName: "Contractor",
      limits: { ...limitedKey.limits, monthlySpendCap: 5 },
    });
  });

  it("shows a key's spend and its last calls in the detail drawer", async () => {
    renderPage([limitedKey]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Details of Contractor" }));
    const drawer = await screen.findByRole("dialog", { name: "API Key Contractor" });
    expect(await within(drawer).findByTestId("api-key-spend-month")).toHaveTextContent("$0.03");
    expect(within(drawer).getByText("$0.05")).toBeInTheDocument();
    const calls = within(drawer).getByRole("table", { name: "Recent calls" });
    expect(within(calls).getByText("Background Removal")).toBeInTheDocument();
    expect(within(calls).getByText("$0.010")).toBeInTheDocument();
    expect(within(calls).getAllByText("203.0.113.7").length).toBeGreaterThan(0);
  });
});

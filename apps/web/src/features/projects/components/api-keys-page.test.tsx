import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import {
  emptyPermissions,
  fullPermissions,
  NO_API_KEY_LIMITS,
  type Organization,
  type Permissions,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../../lib/session";
import { SessionContext } from "../../../lib/session/session-context";
import { routeCalls } from "../../../test/msw";
import { ApiKeysPage, creatorName } from "./api-keys-page";

const project = { id: "p1", name: "Default Project", organizationId: "o1" };

function organization(permissions: Permissions): Organization {
  return {
    id: "o1",
    name: "Acme",
    balance: 0,
    projects: [project],
    permissions,
    properties: { isNew: false },
    billingName: null,
    billingEmail: null,
    taxId: null,
    address: null,
    city: null,
    state: null,
    zipCode: null,
    country: null,
  };
}

function renderPage(permissions: Permissions, apiKeys: unknown[]) {
  const { bodiesTo } = routeCalls(() => HttpResponse.json({ apiKeys }));
  const session = {
    status: "signed-in",
    userInfo: null,
    selectedOrganization: organization(permissions),
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
  return { bodiesTo };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const key = {
  id: "k1",
  name: "Backend",
  lastFourDigits: "a1b2",
  lastUsed: null,
  creationDate: "2026-11-03T16:05:00.000Z",
  creationUserFirstName: null,
  creationUserLastName: null,
  limits: NO_API_KEY_LIMITS,
  spendThisMonth: 0,
  expired: false,
};

describe("API keys page", { timeout: 20_000 }, () => {
  it('names the creator, or "Unknown" when both names are missing', () => {
    expect(creatorName({ creationUserFirstName: "Ada", creationUserLastName: null })).toBe("Ada");
    expect(creatorName({ creationUserFirstName: "Ada", creationUserLastName: "Lovelace" })).toBe(
      "Ada Lovelace",
    );
    expect(creatorName({ creationUserFirstName: null, creationUserLastName: null })).toBe("Unknown");
    expect(creatorName({ creationUserFirstName: " ", creationUserLastName: "" })).toBe("Unknown");
  });

  it("shows the spec's empty text when the project has no keys", async () => {
    renderPage(fullPermissions(true), []);
    expect(
      await screen.findByText(
        "No API keys have been created yet. Generate a new key to start making API requests.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create New" })).toBeEnabled();
  });

  it("lists keys with their columns and lets the owner rename and delete", async () => {
    renderPage(fullPermissions(true), [key]);
    expect(await screen.findByRole("textbox", { name: "API key name" })).toHaveValue("Backend");
    expect(screen.getByText("Unknown")).toBeInTheDocument();
    expect(screen.getByText("Never")).toBeInTheDocument();
    expect(screen.getByText(/a1b2$/)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "API key name" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Delete Backend" })).toBeEnabled();
  });

  it("keeps each action in the column it acts on: Delete alone under Delete, limits and details beside theirs", async () => {
    renderPage(fullPermissions(true), [key]);
    const table = await screen.findByRole("table", { name: "API keys" });
    const headers = within(table).getAllByRole("columnheader");
    const column = (name: string) => headers.findIndex((header) => header.textContent === name);
    const cells = within(within(table).getAllByRole("row")[1] as HTMLElement).getAllByRole("cell");
    const buttonsIn = (name: string) =>
      within(cells[column(name)] as HTMLElement)
        .getAllByRole("button")
        .map((button) => button.getAttribute("aria-label"));

    expect(buttonsIn("Delete")).toEqual(["Delete Backend"]);
    expect(buttonsIn("Limits")).toEqual(["Edit limits of Backend"]);
    expect(buttonsIn("Spend This Month")).toEqual(["Details of Backend"]);
    // Headers stay on one line ("Created by", never "Created / by").
    for (const header of headers) expect(header).toHaveStyle({ whiteSpace: "nowrap" });
  });

  it("shows disabled controls to a member without the API key rights", async () => {
    const member = { ...emptyPermissions(["p1"]), projects: { all: false, p1: true } };
    renderPage(member, [key]);
    expect(await screen.findByRole("textbox", { name: "API key name" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Delete Backend" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Create New" })).toBeDisabled();
  });

  it("confirms an inline rename with the success notice", async () => {
    const { bodiesTo } = renderPage(fullPermissions(true), [key]);
    const user = userEvent.setup();
    const name = await screen.findByRole("textbox", { name: "API key name" });
    await user.clear(name);
    await user.type(name, "Backend v2{Enter}");
    // Finding the toast is the check: it closes itself after 3 s (spec), which on a loaded machine can
    // fall between finding it and reading the document again.
    await screen.findByText("Changes have been saved!");
    expect(bodiesTo("/v1/users/api-keys/update")[0]).toEqual({
      projectId: "p1",
      apiKeyId: "k1",
      apiKeyName: "Backend v2",
    });
  });
});

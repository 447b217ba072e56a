import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { emptyPermissions, fullPermissions, type Organization, type Permissions } from "@prism/contract";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Session } from "../../lib/session";
import { SessionContext } from "../../lib/session/session-context";
import { ProjectPicker } from "./pickers";

const projects = [{ id: "p1", name: "Default Project", organizationId: "o1" }];

function renderPicker(permissions: Permissions) {
  const organization = {
    id: "o1",
    name: "Acme",
    balance: 0,
    projects,
    permissions,
    properties: { isNew: false },
  } as Organization;
  const session = {
    status: "signed-in",
    userInfo: { id: "u1", organizations: [organization] },
    selectedOrganization: organization,
    selectedProject: projects[0],
    selectProject: () => {},
  } as unknown as Session;
  render(
    <MantineProvider>
      <SessionContext.Provider value={session}>
        <ModalsProvider>
          <MemoryRouter>
            <ProjectPicker />
          </MemoryRouter>
        </ModalsProvider>
      </SessionContext.Provider>
    </MantineProvider>,
  );
}

// Mantine's menu renders slowly in jsdom when the whole suite runs in parallel (over 5 s on a loaded
// two-core CI machine).
describe("project picker", { timeout: 45_000 }, () => {
  it("offers Create project to the owner", async () => {
    const user = userEvent.setup();
    renderPicker(fullPermissions(true, ["p1"]));
    await user.click(screen.getByRole("button", { name: /^Project: Default Project/ }));
    expect(
      await screen.findByRole("menuitem", { name: "Create project" }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });

  it("offers Create project to a member with organization.general, as the server allows", async () => {
    const user = userEvent.setup();
    const permissions = emptyPermissions(["p1"]);
    permissions.organization.general = true;
    renderPicker(permissions);
    await user.click(screen.getByRole("button", { name: /^Project: Default Project/ }));
    expect(
      await screen.findByRole("menuitem", { name: "Create project" }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });

  it("does not offer Create project to a member the server would refuse", async () => {
    const user = userEvent.setup();
    const permissions = fullPermissions(false, ["p1"]);
    permissions.organization.general = false;
    renderPicker(permissions);
    await user.click(screen.getByRole("button", { name: /^Project: Default Project/ }));
    expect(
      await screen.findByRole("menuitem", { name: /^Default Project/ }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: "Create project" })).toBeNull();
  });
});

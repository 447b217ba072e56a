import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import {
  EDIT_OWN_PERMISSIONS_REFUSED,
  emptyPermissions,
  fullPermissions,
  memberKeysRevokedText,
  type Organization,
  OWN_OWNER_ROW_NOTE,
  OWNER_ROW_NOTE,
  type Permissions,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, type JsonBodyType } from "msw";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../../lib/session";
import { SessionContext } from "../../../lib/session/session-context";
import { routeCalls } from "../../../test/msw";
import { MembersPage } from "./members-page";

const projects = [{ id: "p1", name: "Default Project", organizationId: "o1" }];
const owner = {
  id: "u1",
  firstName: "Olivia",
  lastName: "Owner",
  email: "olivia@example.com",
  apiKeyCount: 0,
};
const member = { id: "u2", firstName: "Ivan", lastName: "Member", email: "ivan@example.com", apiKeyCount: 3 };
const other = { id: "u3", firstName: "Cy", lastName: "Other", email: "cy@example.com", apiKeyCount: 0 };

function renderMembers(me: typeof owner, myPermissions: Permissions, invitations: unknown[] = []) {
  const list = {
    members: [
      { ...owner, permissions: fullPermissions(true, ["p1"]) },
      { ...member, permissions: { ...emptyPermissions(["p1"]), projects: { all: false, p1: true } } },
      { ...other, permissions: emptyPermissions(["p1"]) },
    ],
    invitations,
    projects,
  };
  routeCalls(() => HttpResponse.json(list as JsonBodyType));
  const organization = {
    id: "o1",
    name: "Acme",
    balance: 0,
    projects,
    permissions: myPermissions,
    properties: { isNew: false },
  } as Organization;
  const session = {
    status: "signed-in",
    userInfo: { ...me, creationDate: "2026-01-01T00:00:00.000Z", organizations: [organization] },
    selectedOrganization: organization,
    selectedProject: projects[0],
  } as unknown as Session;
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SessionContext.Provider value={session}>
          <ModalsProvider>
            <MemoryRouter initialEntries={["/organization/members"]}>
              <MembersPage />
            </MemoryRouter>
          </ModalsProvider>
        </SessionContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Makes the phone media query match, as on a 390 px screen. */
function onPhone() {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.includes("max-width"),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}

const row = async (email: string) => screen.findByTestId(`member-${email}`);

describe("members page", { timeout: 20_000 }, () => {
  it("shows the owner every control except on their own row, with You and Owner badges", async () => {
    renderMembers(owner, fullPermissions(true, ["p1"]), [{ id: "i1", email: "new@example.com" }]);
    const ownerRow = await row(owner.email);
    expect(within(ownerRow).getByText("You")).toBeInTheDocument();
    expect(within(ownerRow).getByText("Owner", { exact: true })).toBeInTheDocument();
    expect(within(ownerRow).getByRole("button", { name: /^Edit permissions/ })).toBeDisabled();
    expect(within(ownerRow).getByRole("button", { name: "Leave" })).toBeDisabled();
    // The greyed-out buttons say why, in the row itself (touch screens show no tooltips).
    expect(within(ownerRow).getByText(OWN_OWNER_ROW_NOTE)).toBeVisible();
    expect(within(ownerRow).getByRole("button", { name: "Leave" })).toHaveAccessibleDescription(
      OWN_OWNER_ROW_NOTE,
    );
    expect(within(ownerRow).getByRole("button", { name: /^Edit permissions/ })).toHaveAccessibleDescription(
      OWN_OWNER_ROW_NOTE,
    );

    const memberRow = await row(member.email);
    expect(within(memberRow).queryByTestId("member-actions-note")).toBeNull();
    expect(within(memberRow).queryByText("You")).toBeNull();
    expect(within(memberRow).getByRole("button", { name: "Edit permissions of Ivan Member" })).toBeEnabled();
    expect(within(memberRow).getByRole("button", { name: "Remove Ivan Member" })).toBeEnabled();

    expect(screen.getByRole("button", { name: "Invite" })).toBeEnabled();
    const pending = screen.getByRole("region", { name: "Pending Invitations" });
    expect(within(pending).getByText("new@example.com")).toBeInTheDocument();
    expect(within(pending).getByRole("button", { name: /^Revoke/ })).toBeEnabled();
  });

  it("gives a member without rights only Leave on their own row and no Invite button", async () => {
    const mine = { ...emptyPermissions(["p1"]), projects: { all: false, p1: true } };
    renderMembers(member, mine);
    const myRow = await row(member.email);
    expect(within(myRow).getByText("You")).toBeInTheDocument();
    expect(within(myRow).getByRole("button", { name: "Leave" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: /^Edit permissions/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Remove / })).toBeNull();
    expect(screen.queryByRole("button", { name: "Invite" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Pending Invitations" })).toBeNull();
  });

  it("lets a member with members.edit and members.delete act on others but never on the owner", async () => {
    const mine = {
      ...emptyPermissions(["p1"]),
      members: { invite: false, edit: true, delete: true },
    };
    renderMembers(member, mine);
    const ownerRow = await row(owner.email);
    expect(within(ownerRow).getByRole("button", { name: /^Edit permissions/ })).toBeDisabled();
    expect(within(ownerRow).getByRole("button", { name: /^Remove/ })).toBeDisabled();
    expect(within(ownerRow).getByRole("button", { name: /^Remove/ })).toHaveAccessibleDescription(
      OWNER_ROW_NOTE,
    );
    const otherRow = await row(other.email);
    expect(within(otherRow).getByRole("button", { name: "Remove Cy Other" })).toBeEnabled();
    expect(within(otherRow).getByRole("button", { name: "Edit permissions of Cy Other" })).toBeEnabled();
  });

  it("says in the Remove dialog how many API keys go with the member, and nothing when they made none", async () => {
    renderMembers(owner, fullPermissions(true, ["p1"]));
    await userEvent.click(
      within(await row(member.email)).getByRole("button", { name: "Remove Ivan Member" }),
    );
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByTestId("member-keys-revoked")).toHaveTextContent(
      "The 3 API keys they created will be revoked with them: calls made with them will stop working.",
    );
    expect(memberKeysRevokedText(3, false)).toBe(
      within(dialog).getByTestId("member-keys-revoked").textContent,
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "No" }));

    await userEvent.click(within(await row(other.email)).getByRole("button", { name: "Remove Cy Other" }));
    const second = await screen.findByRole("dialog");
    expect(within(second).queryByTestId("member-keys-revoked")).toBeNull();
  });

  it("refuses Edit permissions on one's own row and says why", async () => {
    const user = userEvent.setup();
    const mine = { ...emptyPermissions(["p1"]), members: { invite: false, edit: true, delete: false } };
    renderMembers(member, mine);
    const myRow = await row(member.email);
    const edit = within(myRow).getByRole("button", { name: /^Edit permissions/ });
    expect(edit).toBeDisabled();
    expect(edit).toHaveAccessibleDescription(EDIT_OWN_PERMISSIONS_REFUSED);
    expect(within(myRow).getByTestId("member-actions-note")).toHaveTextContent(EDIT_OWN_PERMISSIONS_REFUSED);
    // The tooltip says it too.
    await user.hover(edit.parentElement as HTMLElement);
    await waitFor(() => expect(screen.getAllByText(EDIT_OWN_PERMISSIONS_REFUSED)).toHaveLength(2));
    expect(within(await row(other.email)).getByRole("button", { name: /^Edit permissions/ })).toBeEnabled();
  });

  it("lets an email wrap only after its @ or before a dot, not inside a word", async () => {
    renderMembers(owner, fullPermissions(true, ["p1"]), [{ id: "i1", email: "grace.hopper@example.co.uk" }]);
    const email = within(await row(member.email)).getByText(member.email);
    // "ivan@" | "example" | ".com"
    expect(email.querySelectorAll("wbr")).toHaveLength(2);
    expect(email.innerHTML).toBe("ivan@<wbr>example<wbr>.com");
    const pending = within(screen.getByRole("region", { name: "Pending Invitations" })).getByText(
      "grace.hopper@example.co.uk",
    );
    expect(pending.innerHTML).toBe("grace<wbr>.hopper@<wbr>example<wbr>.co<wbr>.uk");
  });

  it("sums up each member's rights in a few words", async () => {
    renderMembers(owner, fullPermissions(true, ["p1"]));
    const access = async (email: string) => within(await row(email)).getByTestId("member-access");
    expect(await access(owner.email)).toHaveTextContent("Owner · all rights");
    expect(await access(member.email)).toHaveTextContent("View only · 1 project");
    expect(await access(other.email)).toHaveTextContent("No rights");
  });

  it("shows the members as cards with their actions on a phone, not as a wide table", async () => {
    onPhone();
    renderMembers(owner, fullPermissions(true, ["p1"]), [{ id: "i1", email: "new@example.com" }]);
    const memberRow = await row(member.email);
    expect(screen.queryByRole("table")).toBeNull();
    expect(memberRow.tagName).toBe("LI");
    expect(within(screen.getByRole("list", { name: "Members" })).getAllByRole("listitem")).toHaveLength(3);
    expect(within(memberRow).getByText("Email")).toBeInTheDocument();
    expect(within(memberRow).getByText(member.email)).toBeInTheDocument();
    expect(within(memberRow).getByRole("button", { name: "Edit permissions of Ivan Member" })).toBeEnabled();
    expect(within(memberRow).getByRole("button", { name: "Remove Ivan Member" })).toBeEnabled();
    const pending = screen.getByRole("list", { name: "Pending Invitations" });
    expect(within(pending).getByRole("button", { name: /^Revoke/ })).toBeEnabled();
  });
});

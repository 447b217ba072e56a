import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import {
  fullPermissions,
  GRANT_NOT_HELD,
  GRANT_NOT_HELD_NOTE,
  INVITE_EMAILS_INVALID,
  type Member,
  type Permissions,
  permissionsWithRights,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Session, SessionContext } from "../../../lib/session/session-context";
import { routeCalls, type SentCall } from "../../../test/msw";
import { PermissionsDialog, type PermissionsDialogTarget } from "./permissions-dialog";

const projects = [
  { id: "p1", name: "Alpha", organizationId: "o1" },
  { id: "p2", name: "Beta", organizationId: "o1" },
];

const session = {
  status: "signed-in",
  userInfo: null,
  selectedOrganization: null,
  selectedProject: null,
  selectOrganization: () => {},
  selectProject: () => {},
  setUserInfo: () => {},
  updateUserInfo: vi.fn(),
  refreshUserInfo: async () => null,
  logout: async () => {},
} satisfies Session;

const bob: Member = {
  apiKeyCount: 0,
  id: "u2",
  firstName: "Bob",
  lastName: "Stone",
  email: "bob@example.com",
  permissions: {
    ...fullPermissions(false),
    organization: {
      general: false,
      billing: true,
      payments: false,
      invoices: false,
      playground: true,
      audit: false,
    },
    projects: { all: false, p1: true },
  },
};

let requests: SentCall[] = [];

beforeEach(() => {
  requests = routeCalls(({ path }) =>
    HttpResponse.json(
      path.endsWith("/change-owner")
        ? { newPermissions: { ...fullPermissions(false), projects: { all: true } } }
        : {},
    ),
  ).sent;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderDialog(
  target: PermissionsDialogTarget,
  canTransferOwnership = false,
  actingPermissions: Permissions = fullPermissions(true),
) {
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SessionContext.Provider value={session}>
          <ModalsProvider>
            <PermissionsDialog
              target={target}
              organizationId="o1"
              organizationName="Acme"
              projects={projects}
              actingPermissions={actingPermissions}
              canTransferOwnership={canTransferOwnership}
              onClose={onClose}
            />
          </ModalsProvider>
        </SessionContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  const title = target.kind === "invite" ? "Invite Members or Permissions" : "Edit Permissions";
  return { onClose, dialog: screen.getByRole("dialog", { name: title }) };
}

const box = (name: string) => screen.getByRole("checkbox", { name });
const allBoxes = () => screen.getAllByRole("checkbox") as HTMLInputElement[];

// Mantine's dialog and checkboxes render slowly in jsdom when the whole suite runs in parallel.
describe("Invite Members or Permissions", { timeout: 20_000 }, () => {
  it("forces and locks every project while All Projects is on", async () => {
    const user = userEvent.setup();
    renderDialog({ kind: "invite" });
    expect(box("Project: Alpha")).not.toBeChecked();
    await user.click(box("All Projects"));
    for (const name of ["Project: Alpha", "Project: Beta"]) {
      expect(box(name)).toBeChecked();
      expect(box(name)).toBeDisabled();
    }
    await user.click(box("All Projects"));
    expect(box("Project: Alpha")).toBeChecked();
    expect(box("Project: Alpha")).toBeEnabled();
    await user.click(box("Project: Alpha"));
    expect(box("Project: Alpha")).not.toBeChecked();
  });

  it("checks every box with Select All and clears them with Deselect All", async () => {
    const user = userEvent.setup();
    renderDialog({ kind: "invite" });
    await user.click(screen.getByRole("button", { name: "Select All" }));
    expect(allBoxes().every((checkbox) => checkbox.checked)).toBe(true);
    expect(box("Project: Beta")).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Deselect All" }));
    expect(allBoxes().some((checkbox) => checkbox.checked)).toBe(false);
    expect(box("Project: Beta")).toBeEnabled();
  });

  it("sends nothing for a malformed address, then invites with the chosen permissions", async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ kind: "invite" });
    expect(screen.queryByRole("button", { name: "Transfer Ownership" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Save Changes" })).toBeNull();
    const emails = screen.getByRole("textbox", { name: "Email addresses" });
    await user.click(emails);
    await user.paste("ann@example.com not-an-email");
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    expect(requests).toHaveLength(0);
    expect(emails).toHaveAttribute("aria-invalid", "true");

    await user.clear(emails);
    await user.paste("ann@example.com, cy@example.com");
    await user.click(box("Organization: Billing"));
    await user.click(box("Project: Beta"));
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe("/v1/users/organization-members/invite");
    const body = requests[0]?.body as { emailList: string; permissions: Permissions };
    expect(body.emailList).toBe("ann@example.com cy@example.com");
    expect(body.permissions.owner).toBe(false);
    expect(body.permissions.organization.billing).toBe(true);
    expect(body.permissions.organization.general).toBe(false);
    expect(body.permissions.projects).toEqual({ all: false, p1: false, p2: true });
  });

  it("outlines an empty or malformed address list without a message until it is edited", async () => {
    const user = userEvent.setup();
    renderDialog({ kind: "invite" });
    const emails = screen.getByRole("textbox", { name: "Email addresses" });
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    expect(emails).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText(INVITE_EMAILS_INVALID)).toBeNull();
    await user.type(emails, "ann@");
    expect(emails).not.toHaveAttribute("aria-invalid", "true");
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    expect(emails).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText(INVITE_EMAILS_INVALID)).toBeNull();
    expect(requests).toHaveLength(0);

    await user.type(emails, "example.com   bo@example.com");
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toMatchObject({ emailList: "ann@example.com bo@example.com" });
  });

  it("edits a member starting from their own rights and saves them", async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ kind: "edit", member: bob });
    expect(screen.queryByRole("button", { name: "Send Invites" })).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Email addresses" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Transfer Ownership" })).toBeNull();
    expect(box("Organization: Billing")).toBeChecked();
    expect(box("Organization: General")).not.toBeChecked();
    expect(box("Project: Alpha")).toBeChecked();
    expect(box("Project: Beta")).not.toBeChecked();

    await user.click(box("API Keys: Delete"));
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests[0]?.path).toBe("/v1/users/organization-members/edit-permissions");
    const body = requests[0]?.body as { memberUserId: string; permissions: Permissions };
    expect(body.memberUserId).toBe("u2");
    expect(body.permissions.apiKeys).toEqual({ create: true, delete: false });
  });

  it("shows the Audit log right (organization.audit) and saves it when turned on", async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ kind: "edit", member: bob });
    const audit = box("Organization: Audit log");
    expect(audit).toBeEnabled();
    expect(audit).not.toBeChecked();
    await user.click(audit);
    expect(audit).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = requests[0]?.body as { permissions: Permissions };
    expect(body.permissions.organization.audit).toBe(true);
    // Nothing else moved.
    expect({ ...body.permissions.organization, audit: false }).toEqual(bob.permissions.organization);
  });

  it("disables the Audit log right for a member who does not hold it", () => {
    renderDialog({ kind: "invite" }, false, permissionsWithRights(["members.invite"], ["p1", "p2"]));
    expect(box("Organization: Audit log")).toBeDisabled();
    expect(box("Organization: Audit log")).toHaveAccessibleDescription(
      expect.stringContaining(GRANT_NOT_HELD),
    );
  });

  it("offers Transfer Ownership only to the owner editing a member, after a confirmation", async () => {
    const user = userEvent.setup();
    renderDialog({ kind: "edit", member: bob }, true);
    await user.click(screen.getByRole("button", { name: "Transfer Ownership" }));
    const confirm = await screen.findByRole("dialog", { name: "Transfer Ownership" });
    await user.click(within(confirm).getByRole("button", { name: "No" }));
    expect(requests).toHaveLength(0);
  });

  it("transfers the ownership and takes the former owner's new permissions from the answer", async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ kind: "edit", member: bob }, true);
    await user.click(screen.getByRole("button", { name: "Transfer Ownership" }));
    const confirm = await screen.findByRole("dialog", { name: "Transfer Ownership" });
    await user.click(within(confirm).getByRole("button", { name: "Yes, proceed" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests[0]?.path).toBe("/v1/users/organizations/change-owner");
    expect(requests[0]?.body).toEqual({ organizationId: "o1", newOwnerUserId: "u2" });
    const update = session.updateUserInfo.mock.calls[0]?.[0] as (userInfo: unknown) => {
      organizations: { id: string; permissions: Permissions }[];
    };
    const before = {
      organizations: [
        { id: "o1", permissions: fullPermissions(true) },
        { id: "o2", permissions: fullPermissions(true) },
      ],
    };
    const after = update(before);
    expect(after.organizations[0]?.permissions.owner).toBe(false);
    expect(after.organizations[0]?.permissions.members.invite).toBe(true);
    expect(after.organizations[1]?.permissions.owner).toBe(true);
  });

  it("fills the boxes from a role preset, which stay editable, and sends what is shown", async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ kind: "invite" });
    // The owner holds every right: nothing is off limits.
    expect(screen.queryByTestId("grant-not-held-note")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Developer" }));
    expect(screen.getByRole("button", { name: "Developer" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("role-preset-description")).toHaveTextContent(
      "Developer: The playground and API keys of every project.",
    );
    expect(box("Organization: Playground")).toBeChecked();
    expect(box("API Keys: Create")).toBeChecked();
    expect(box("API Keys: Delete")).toBeChecked();
    expect(box("All Projects")).toBeChecked();
    expect(box("Organization: Payments")).not.toBeChecked();
    expect(box("Members: Invite")).not.toBeChecked();

    await user.click(box("API Keys: Delete"));
    expect(box("API Keys: Delete")).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Developer" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByTestId("role-preset-description")).toHaveTextContent(/^Custom rights/);

    await user.click(screen.getByRole("button", { name: "Billing" }));
    expect(box("Organization: Invoices")).toBeChecked();
    expect(box("Organization: Playground")).not.toBeChecked();
    expect(box("All Projects")).not.toBeChecked();

    await user.click(screen.getByRole("textbox", { name: "Email addresses" }));
    await user.paste("ann@example.com");
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = requests[0]?.body as { permissions: Permissions };
    expect(body.permissions.organization).toEqual({
      general: false,
      billing: true,
      payments: true,
      invoices: true,
      playground: false,
      audit: false,
    });
    expect(body.permissions.projects).toEqual({ all: false, p1: false, p2: false });
  });

  it("disables, with the reason, the boxes of rights the acting member does not hold", async () => {
    const user = userEvent.setup();
    const acting = permissionsWithRights(
      ["members.invite", "organization.playground", "apiKeys.create", "projects.p1"],
      ["p1", "p2"],
    );
    const { onClose } = renderDialog({ kind: "invite" }, false, acting);
    expect(screen.getByTestId("grant-not-held-note")).toHaveTextContent(GRANT_NOT_HELD_NOTE);
    for (const name of [
      "Organization: Payments",
      "Members: Edit",
      "API Keys: Delete",
      "All Projects",
      "Project: Beta",
    ]) {
      expect(box(name)).toBeDisabled();
      expect(box(name)).toHaveAccessibleDescription(expect.stringContaining(GRANT_NOT_HELD));
    }
    for (const name of [
      "Organization: Playground",
      "Members: Invite",
      "API Keys: Create",
      "Project: Alpha",
    ]) {
      expect(box(name)).toBeEnabled();
    }

    // Select All and the presets stop at what the acting member holds.
    await user.click(screen.getByRole("button", { name: "Select All" }));
    expect(box("Organization: Payments")).not.toBeChecked();
    expect(box("All Projects")).not.toBeChecked();
    expect(box("Project: Alpha")).toBeChecked();
    expect(box("Project: Beta")).not.toBeChecked();
    await user.click(screen.getByRole("button", { name: "Admin" }));
    expect(box("Organization: General")).not.toBeChecked();

    await user.click(screen.getByRole("textbox", { name: "Email addresses" }));
    await user.paste("ann@example.com");
    await user.click(screen.getByRole("button", { name: "Send Invites" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = requests[0]?.body as { permissions: Permissions };
    expect(body.permissions).toEqual(
      permissionsWithRights(
        ["members.invite", "organization.playground", "apiKeys.create", "projects.p1"],
        ["p1", "p2"],
      ),
    );
  });
});

import { AUDIT_PAGE_SIZE, type AuditEntry, fullPermissions } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { AuditLogPage } from "./audit-log-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

function entry(index: number): AuditEntry {
  return {
    id: `e-${index}`,
    createdAt: "2026-11-03T23:30:00.000Z",
    actor: { type: "user", id: "u1", name: "Ada Lovelace" },
    action: "project.renamed",
    targetType: "project",
    targetId: "p1",
    changes: { before: { name: `Old ${index}` }, after: { name: `New ${index}` } },
    ip: "203.0.113.7",
  };
}

const members = { members: [], invitations: [], projects: [] };

describe("AuditLogPage", () => {
  it("lists entries with their changes and loads the next keyset page on demand", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organization-members/list": () => ({ body: members }),
      "/v1/users/audit-log/list": (body) =>
        body.cursor === "next"
          ? { body: { entries: [entry(AUDIT_PAGE_SIZE)], nextCursor: null } }
          : {
              body: {
                entries: Array.from({ length: AUDIT_PAGE_SIZE }, (_, index) => entry(index)),
                nextCursor: "next",
              },
            },
    });
    renderWithSession(<AuditLogPage />, "/organization/audit-log");
    const user = userEvent.setup();

    const rows = await screen.findAllByTestId("audit-row");
    expect(rows).toHaveLength(AUDIT_PAGE_SIZE);
    const first = rows[0];
    if (!first) throw new Error("no row");
    expect(within(first).getByText("Project renamed")).toBeInTheDocument();
    expect(within(first).getByText("Ada Lovelace")).toBeInTheDocument();
    // The words "was" and "now" are for screen readers (visually hidden): the eye has the arrow.
    expect(within(first).getByTestId("audit-changes")).toHaveTextContent("Name: was Old 0 → now New 0");
    expect(within(first).getByText("203.0.113.7")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Load more" }));
    await vi.waitFor(() =>
      expect(screen.getAllByTestId("audit-changes").at(-1)).toHaveTextContent(
        `Name: was Old ${AUDIT_PAGE_SIZE} → now New ${AUDIT_PAGE_SIZE}`,
      ),
    );
    expect(screen.getAllByTestId("audit-row")).toHaveLength(AUDIT_PAGE_SIZE + 1);
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(bodiesTo("/v1/users/audit-log/list").map((body) => body.cursor)).toEqual([undefined, "next"]);
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/v1/users/audit-log/export?organizationId=org-1",
    );
  });

  it("says when there is nothing yet, and offers a retry when the log cannot be read", async () => {
    let fail = true;
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organization-members/list": () => ({ body: members }),
      "/v1/users/audit-log/list": () =>
        fail
          ? {
              status: 503,
              body: { error: "service-unavailable", message: "The service is temporarily unavailable." },
            }
          : { body: { entries: [], nextCursor: null } },
    });
    renderWithSession(<AuditLogPage />, "/organization/audit-log");
    expect(await screen.findByText("The audit log could not be loaded")).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No entries yet")).toBeInTheDocument();
  });

  it("tells a member without organization.audit that they have no access, and asks nothing", async () => {
    const permissions = fullPermissions(false);
    permissions.organization.audit = false;
    const { sent } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ permissions })) }),
    });
    renderWithSession(<AuditLogPage />, "/organization/audit-log");
    expect(await screen.findByText("No access")).toBeInTheDocument();
    expect(sent.map((call) => call.path)).toEqual(["/v1/users/me"]);
  });
});

import { ARCHIVE_LAST_ORGANIZATION } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { OrganizationGeneralPage } from "./organization-general-page";

describe("OrganizationGeneralPage", () => {
  it("says why the only organization cannot be archived, beside a disabled Archive, and sends nothing", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/users/organizations/delete": () => ({ body: {} }),
    });
    renderWithSession(<OrganizationGeneralPage />);
    const archive = await screen.findByRole("button", { name: "Archive" });
    expect(archive).toBeDisabled();
    expect(archive).toHaveAccessibleDescription(ARCHIVE_LAST_ORGANIZATION);
    expect(
      within(screen.getByRole("region", { name: "Archive organization" })).getByText(
        ARCHIVE_LAST_ORGANIZATION,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(bodiesTo("/v1/users/organizations/delete")).toEqual([]);
  });

  it("archives an organization when the user has another one, after the confirmation", async () => {
    const first = ownedOrganization();
    const second = ownedOrganization({ id: "org-2", name: "Second", projects: [] });
    const { bodiesTo } = stubApi({
      "/v1/users/me": () => ({ body: { ...userWith(first), organizations: [first, second] } }),
      "/v1/users/organizations/delete": () => ({ body: {} }),
    });
    renderWithSession(<OrganizationGeneralPage />);
    const user = userEvent.setup();
    const archive = await screen.findByRole("button", { name: "Archive" });
    expect(archive).toBeEnabled();
    expect(screen.queryByTestId("archive-blocked")).toBeNull();
    await user.click(archive);
    await user.click(await screen.findByRole("button", { name: "Yes, proceed" }));
    await vi.waitFor(() =>
      expect(bodiesTo("/v1/users/organizations/delete")).toEqual([{ organizationId: "org-1" }]),
    );
  });
});

import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../test/session-harness";
import { useTwoFactorRequirement } from "./two-factor-requirement";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Stands for the shell: the routed page shows only once the requirement lets it. */
function Page() {
  const wait = useTwoFactorRequirement();
  return <p>{wait ? "waiting" : "the page"}</p>;
}

const required = ownedOrganization({ properties: { isNew: false, requireTwoFactor: true } });

describe("useTwoFactorRequirement", () => {
  it("sends a member without a second factor to the profile's two-factor section", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(required) }),
      "/v1/users/two-factor/status": () => ({ body: { enabled: false, recoveryCodesLeft: 0 } }),
      "/v1/users/passkeys/list": () => ({ body: { passkeys: [] } }),
    });
    const router = renderWithSession(<Page />, "/organization/members");
    // The page never shows (it would make calls the server refuses) before the redirect.
    expect(await screen.findByText("waiting")).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/settings/profile"));
    expect(router.state.location.search).toBe("?two-factor-required=1");
    expect(router.state.location.hash).toBe("#two-factor");
  });

  it("leaves an enrolled member, or an organization without the requirement, where they are", async () => {
    const { sent } = stubApi({
      "/v1/users/me": () => ({ body: userWith(required) }),
      "/v1/users/two-factor/status": () => ({ body: { enabled: true, recoveryCodesLeft: 10 } }),
      "/v1/users/passkeys/list": () => ({ body: { passkeys: [] } }),
    });
    const router = renderWithSession(<Page />, "/organization/members");
    await screen.findByText("the page");
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(router.state.location.pathname).toBe("/organization/members");

    const plain = stubApi({ "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }) });
    renderWithSession(<Page />, "/organization/members");
    await screen.findAllByText("the page");
    // Without the requirement nothing about second factors is asked.
    expect(plain.sent.map((call) => call.path)).toEqual(["/v1/users/me"]);
  });
});

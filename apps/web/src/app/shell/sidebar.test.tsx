import { AppShell } from "@mantine/core";
import { FEATURES, NEEDS_MODEL_SERVER_BADGE, UNAVAILABLE_BADGE } from "@prism/contract";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../test/session-harness";
import { Sidebar } from "./sidebar";

afterEach(() => {
  vi.unstubAllGlobals();
});

const MODEL_SERVER_ONLY = new Set(["image-generation", "pegasus-generation", "reimagine"]);

function stubStatuses(organization = ownedOrganization()) {
  stubApi({
    "/v1/users/me": () => ({ body: userWith(organization) }),
    "/v1/public-config": () => ({ body: { environment: "development" } }),
    "/v1/users/playground/feature-status": () => ({
      body: {
        features: FEATURES.map((feature) => ({
          endpoint: feature.endpoint,
          available: !MODEL_SERVER_ONLY.has(feature.id) && feature.id !== "speech-to-text",
          reason: feature.id === "speech-to-text" ? "pocketsphinx is not installed." : null,
          provider: MODEL_SERVER_ONLY.has(feature.id) ? null : "builtin",
          priceInfo: { price: 0.01 },
        })),
      },
    }),
  });
}

// Mantine's app shell renders slowly in jsdom when the whole suite runs in parallel.
describe("sidebar", { timeout: 20_000 }, () => {
  it("marks a feature that needs a model server plainly Unavailable for a member, who runs no server", async () => {
    const member = ownedOrganization();
    member.permissions = { ...member.permissions, owner: false };
    stubStatuses(member);
    renderWithSession(
      <AppShell navbar={{ width: 264, breakpoint: "sm" }}>
        <AppShell.Navbar>
          <Sidebar onNavigate={() => {}} />
        </AppShell.Navbar>
      </AppShell>,
      "/playground/image-generation",
    );
    const nav = await screen.findByRole("navigation", { name: "Main" }, { timeout: 10_000 });
    await vi.waitFor(() => expect(within(nav).getAllByTestId("unavailable-badge")).toHaveLength(4), {
      timeout: 10_000,
    });
    for (const badge of within(nav).getAllByTestId("unavailable-badge")) {
      expect(badge).toHaveTextContent(UNAVAILABLE_BADGE);
    }
  });

  it("marks the playground features this deployment cannot run, and only those", async () => {
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/public-config": () => ({ body: { environment: "development" } }),
      "/v1/users/playground/feature-status": () => ({
        body: {
          features: FEATURES.map((feature) => ({
            endpoint: feature.endpoint,
            available: !MODEL_SERVER_ONLY.has(feature.id) && feature.id !== "speech-to-text",
            reason: feature.id === "speech-to-text" ? "pocketsphinx is not installed." : null,
            provider: MODEL_SERVER_ONLY.has(feature.id) ? null : "builtin",
            priceInfo: { price: 0.01 },
          })),
        },
      }),
    });
    renderWithSession(
      <AppShell navbar={{ width: 264, breakpoint: "sm" }}>
        <AppShell.Navbar>
          <Sidebar onNavigate={() => {}} />
        </AppShell.Navbar>
      </AppShell>,
      "/playground/image-generation",
    );
    const nav = await screen.findByRole("navigation", { name: "Main" }, { timeout: 10_000 });
    const link = (name: string) => within(nav).getByRole("link", { name: new RegExp(`^${name}`) });

    await vi.waitFor(() => expect(within(nav).getAllByTestId("unavailable-badge")).toHaveLength(4), {
      timeout: 10_000,
    });
    for (const name of ["Image Generation", "Pegasus Generation", "Reimagine"]) {
      const badge = within(link(name)).getByTestId("unavailable-badge");
      expect(badge).toHaveTextContent(NEEDS_MODEL_SERVER_BADGE);
    }
    expect(within(link("Speech to Text")).getByTestId("unavailable-badge")).toHaveTextContent(
      UNAVAILABLE_BADGE,
    );
    expect(within(link("Background Removal")).queryByTestId("unavailable-badge")).toBeNull();
    expect(within(link("Generative Fill")).queryByTestId("unavailable-badge")).toBeNull();

    // A dark feature's badge tells whoever runs the deployment which variables light it.
    await userEvent.hover(within(link("Reimagine")).getByTestId("unavailable-badge"));
    expect(
      await screen.findByText(
        "Set REPLICATE_API_TOKEN, FAL_KEY, STABILITY_API_KEY, COMFYUI_URLS or MODEL_SERVER_URL on the server to turn it on.",
      ),
    ).toBeInTheDocument();
  });
});

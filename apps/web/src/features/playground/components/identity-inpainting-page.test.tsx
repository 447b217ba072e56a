import { identityInpaintingFeature, NOT_FOUND_TITLE, PROMPT_PLACEHOLDER } from "@prism/contract";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { IdentityInpaintingPage, identityInpaintingRowImages } from "./identity-inpainting-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(appEnv: "production" | "test") {
  stubApi({
    "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
    "/v1/public-config": () => ({
      body: {
        appEnv,
        productName: "Prism",
        recaptcha: null,
        googleClientId: null,
        github: null,
        payments: { provider: "sandbox", publishableKey: null },
        devMailbox: false,
      },
    }),
    "/v1/users/playground/feature-status": () => ({
      body: {
        features: [
          {
            endpoint: identityInpaintingFeature.endpoint,
            available: true,
            reason: null,
            provider: "http",
            priceInfo: { price: 0.05 },
          },
        ],
      },
    }),
    "/v1/users/playground/get-requests": () => ({
      body: { requests: [], hasMoreItems: false, priceInfo: { price: 0.05 } },
    }),
    "/v1/users/playground/get-trained-identities": () => ({ body: { requests: [], hasMoreItems: false } }),
  });
  renderWithSession(<IdentityInpaintingPage />);
}

describe("IdentityInpaintingPage", () => {
  it("offers the inputs outside production, with Inpaint disabled until an image and a clone exist", async () => {
    renderPage("test");
    expect(await screen.findByRole("heading", { name: "Identity Inpainting" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Select Area to Inpaint" })).toBeDisabled();
    expect(screen.getByPlaceholderText(PROMPT_PLACEHOLDER)).toBeInTheDocument();
    expect(screen.getByTestId("prompt-counter")).toHaveTextContent("0/1000");
    expect(screen.getByRole("checkbox", { name: "Use Artistic Checkpoint" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Inpaint" })).toBeDisabled();
    expect(await screen.findByText("No AI Clones yet")).toBeInTheDocument();
  });

  it("shows the Not Found page in production", async () => {
    renderPage("production");
    expect(await screen.findByRole("heading", { name: NOT_FOUND_TITLE })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Inpaint" })).not.toBeInTheDocument();
  });
});

describe("identityInpaintingRowImages", () => {
  it("shows the original, the mask over the original, and the result", () => {
    const images = identityInpaintingRowImages({
      key: "r1",
      local: false,
      id: "r1",
      request_date: "2026-11-03T16:05:00Z",
      cost: 0.02,
      request_data: { files: { image: ["/v1/files/in"], mask: ["/v1/files/mask"] }, body: {} },
      response_data: { file: "/v1/files/out" },
      status: "done",
    });
    expect(images).toEqual([
      { label: "Original", url: "/v1/files/in" },
      { label: "Mask overlay", url: "/v1/files/mask", overlayOn: "/v1/files/in" },
      { label: "Result", url: "/v1/files/out" },
    ]);
  });
});

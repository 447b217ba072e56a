import { imageExtensionFeature } from "@prism/contract";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useNodeMultipart } from "../../../test/node-multipart";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { ImageExtensionPage } from "./image-extension-page";

beforeEach(() => {
  useNodeMultipart();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ImageExtensionPage", () => {
  it("shows an API call that extends the image while no side is set, since all sides 0 answers 400", async () => {
    const priceInfo = { price: 0.02 };
    stubApi({
      "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
      "/v1/users/playground/feature-status": () => ({
        body: {
          features: [
            {
              endpoint: imageExtensionFeature.endpoint,
              available: true,
              reason: null,
              provider: "http",
              priceInfo,
            },
          ],
        },
      }),
      "/v1/users/playground/get-requests": () => ({
        body: { requests: [], hasMoreItems: false, priceInfo },
      }),
    });
    renderWithSession(<ImageExtensionPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Show API Call" }));
    const code = (await screen.findAllByText(/top=256/)).map((node) => node.textContent ?? "");
    expect(code.join("\n")).toContain("-F 'bottom=256'");
    expect(code.join("\n")).not.toContain("top=0");
  });
});

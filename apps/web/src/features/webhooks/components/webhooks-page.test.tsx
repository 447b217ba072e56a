import { WEBHOOK_URL_INVALID } from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { WebhooksPage } from "./webhooks-page";

const CONFIG = {
  appEnv: "test",
  productName: "Prism",
  recaptcha: null,
  googleClientId: null,
  github: null,
  payments: { provider: "sandbox", publishableKey: null },
  devMailbox: false,
};

const ENDPOINT = {
  id: "wh-1",
  url: "https://example.com/hooks",
  events: ["request.succeeded", "training.ready"],
  enabled: true,
  disabledReason: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

afterEach(() => vi.unstubAllGlobals());

describe("WebhooksPage: Add endpoint", () => {
  it("refuses a bad address with the contract's message, then sends the trimmed address and the events", async () => {
    const { bodiesTo } = stubApi({
      "/v1/public-config": () => ({ body: CONFIG }),
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/organizations/webhooks/list": () => ({ body: { endpoints: [] } }),
      "/v1/organizations/webhooks/insert": () => ({ body: { endpoint: ENDPOINT, secret: "whsec_abc" } }),
    });
    renderWithSession(<WebhooksPage />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Add endpoint" });
    await user.type(within(dialog).getByLabelText("Endpoint URL"), "ftp://example.com");
    await user.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    expect(within(dialog).getByText(WEBHOOK_URL_INVALID)).toBeInTheDocument();
    expect(bodiesTo("/v1/organizations/webhooks/insert")).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText("Endpoint URL"));
    expect(within(dialog).queryByText(WEBHOOK_URL_INVALID)).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Endpoint URL"), " https://example.com/hooks ");
    await user.click(within(dialog).getByRole("checkbox", { name: /request\.failed/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /training\.ready/ }));
    await user.click(within(dialog).getByRole("button", { name: "Add endpoint" }));

    expect(await screen.findByLabelText("Signing secret")).toHaveValue("whsec_abc");
    expect(bodiesTo("/v1/organizations/webhooks/insert")).toEqual([
      {
        organizationId: "org-1",
        url: "https://example.com/hooks",
        events: ["request.succeeded", "training.ready"],
      },
    ]);
  });

  it("cannot be sent without an event", async () => {
    stubApi({
      "/v1/public-config": () => ({ body: CONFIG }),
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/organizations/webhooks/list": () => ({ body: { endpoints: [] } }),
    });
    renderWithSession(<WebhooksPage />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Add endpoint" });
    await user.click(within(dialog).getByRole("checkbox", { name: /request\.succeeded/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /request\.failed/ }));
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Add endpoint" })).toBeDisabled());
  });
});

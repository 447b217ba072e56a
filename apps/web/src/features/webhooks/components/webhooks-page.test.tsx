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

describe("WebhooksPage: per-call webhooks", () => {
  const DELIVERY = {
    id: "d-1",
    eventId: "evt_1",
    eventType: "request.completed",
    status: "succeeded",
    attempts: 1,
    responseStatus: 204,
    responseBody: "",
    durationMs: 12,
    lastAttemptAt: "2026-11-27T10:00:01.000Z",
    nextAttemptAt: null,
    createdAt: "2026-11-27T10:00:00.000Z",
    requestId: "33333333-3333-4333-8333-333333333333",
    url: "https://hooks.example.com/calls",
  };

  it("reveals the per-call signing secret on demand and lists the per-call deliveries", async () => {
    const { bodiesTo } = stubApi({
      "/v1/public-config": () => ({ body: CONFIG }),
      "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
      "/v1/organizations/webhooks/list": () => ({ body: { endpoints: [] } }),
      "/v1/organizations/webhooks/call-deliveries": () => ({ body: { deliveries: [DELIVERY] } }),
      "/v1/organizations/webhooks/call-secret": () => ({ body: { secret: "whsec_percall" } }),
    });
    renderWithSession(<WebhooksPage />);
    const user = userEvent.setup();

    const section = await screen.findByRole("region", { name: "Per-call webhooks" });
    expect(within(section).queryByLabelText("Per-call signing secret")).not.toBeInTheDocument();
    expect(bodiesTo("/v1/organizations/webhooks/call-secret")).toHaveLength(0);
    expect(await within(section).findByText("https://hooks.example.com/calls")).toBeInTheDocument();
    expect(within(section).getByText("request.completed")).toBeInTheDocument();

    await user.click(within(section).getByRole("button", { name: "Reveal secret" }));
    expect(await within(section).findByLabelText("Per-call signing secret")).toHaveValue("whsec_percall");
    expect(bodiesTo("/v1/organizations/webhooks/call-secret")).toEqual([{ organizationId: "org-1" }]);
  });
});

import { MantineProvider } from "@mantine/core";
import { REMOVE_PASSKEY_LINK_PATH, REMOVE_PASSKEY_PAGE } from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { PATHS } from "../../../lib/paths";
import { routeCalls } from "../../../test/msw";
import { RemovePasskeyPage } from "./remove-passkey-page";

const TOKEN = "t".repeat(43);
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderPage() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[`/remove-passkey?token=${TOKEN}`]}>
          <RemovePasskeyPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe("the passkey-added mail's removal page", () => {
  it("is where the server's mail links to", () => {
    expect(PATHS.removePasskey).toBe(REMOVE_PASSKEY_LINK_PATH);
  });

  it("changes nothing on opening, and removes the passkey with the link's token on the button", async () => {
    const { bodiesTo } = routeCalls(() => json(200, {}));
    const user = renderPage();
    expect(screen.getByText(REMOVE_PASSKEY_PAGE.description)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/passkeys/remove-with-link")).toEqual([]);
    await user.click(screen.getByRole("button", { name: REMOVE_PASSKEY_PAGE.button }));
    expect(await screen.findByText(REMOVE_PASSKEY_PAGE.done)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/passkeys/remove-with-link")).toEqual([{ token: TOKEN }]);
  });

  it("says a used link is no longer valid and offers nothing more to press", async () => {
    routeCalls(() => json(404, { error: "not-found", message: REMOVE_PASSKEY_PAGE.invalid }));
    const user = renderPage();
    await user.click(screen.getByRole("button", { name: REMOVE_PASSKEY_PAGE.button }));
    expect(await screen.findByText(REMOVE_PASSKEY_PAGE.invalid)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: REMOVE_PASSKEY_PAGE.button })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: REMOVE_PASSKEY_PAGE.signIn })).toHaveAttribute("href", "/login");
  });
});

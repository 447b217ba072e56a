import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE, readCookie, writeCookie } from "../../../lib/cookies";
import type { Session } from "../../../lib/session";
import { SessionContext } from "../../../lib/session/session-context";
import { useInvitationFlow } from "./invitation-flow";

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer> = {};
let requests: { path: string; body: Record<string, unknown> }[] = [];

beforeEach(() => {
  answers = {};
  requests = [];
  writeCookie(COOKIE.invitationId, null);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      requests.push({ path, body: JSON.parse(String(init?.body ?? "{}")) });
      const answer = answers[path] ?? { status: 200, body: {} };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const CHECK = "/v1/users/organization-members/check-invitation";
const CONFIRM = "/v1/users/organization-members/confirm-invitation";

function Probe() {
  useInvitationFlow();
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

function renderFlow(url: string) {
  const session: Session = {
    status: "signed-in",
    userInfo: null,
    selectedOrganization: null,
    selectedProject: null,
    selectOrganization: vi.fn(),
    selectProject: vi.fn(),
    setUserInfo: vi.fn(),
    updateUserInfo: vi.fn(),
    refreshUserInfo: vi.fn(async () => null),
    logout: vi.fn(async () => {}),
  };
  const router = createMemoryRouter(
    [
      { path: "/organization/members", element: <Probe /> },
      { path: "/login", element: <div>login</div> },
    ],
    { initialEntries: [url] },
  );
  render(
    <MantineProvider>
      <SessionContext.Provider value={session}>
        <ModalsProvider>
          <RouterProvider router={router} />
        </ModalsProvider>
      </SessionContext.Provider>
    </MantineProvider>,
  );
  return session;
}

describe("invitation flow", { timeout: 20_000 }, () => {
  it("asks to join, confirms, reloads the user and selects the joined organization", async () => {
    answers[CHECK] = { status: 200, body: { valid: true, shouldLogOut: false, organizationName: "Acme" } };
    answers[CONFIRM] = { status: 200, body: { organizationId: "o9" } };
    const user = userEvent.setup();
    const session = renderFlow("/organization/members?invitation=inv-1");

    const join = await screen.findByRole("dialog", { name: "Join Organization" });
    expect(within(join).getByText("Acme")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/organization\/members$/);
    await user.click(within(join).getByRole("button", { name: "Yes" }));

    const confirmed = await screen.findByRole("dialog", { name: "Invitation Confirmed" });
    expect(requests.find((request) => request.path === CONFIRM)?.body).toEqual({
      invitationId: "inv-1",
      confirmed: true,
    });
    expect(session.refreshUserInfo).toHaveBeenCalled();
    expect(session.selectOrganization).toHaveBeenCalledWith("o9");
    expect(within(confirmed).getByText("Acme")).toBeInTheDocument();
  });

  it("sends a rejection when the user declines", async () => {
    answers[CHECK] = { status: 200, body: { valid: true, shouldLogOut: false, organizationName: "Acme" } };
    answers[CONFIRM] = { status: 200, body: { organizationId: "o9" } };
    const user = userEvent.setup();
    const session = renderFlow("/organization/members?invitation=inv-2");
    await user.click(
      within(await screen.findByRole("dialog", { name: "Join Organization" })).getByRole("button", {
        name: "No",
      }),
    );
    await waitFor(() =>
      expect(requests.find((request) => request.path === CONFIRM)?.body).toEqual({
        invitationId: "inv-2",
        confirmed: false,
      }),
    );
    expect(session.selectOrganization).not.toHaveBeenCalled();
    expect(screen.queryByRole("dialog", { name: "Invitation Confirmed" })).toBeNull();
  });

  it("shows Invalid Invitation for an invitation that is no longer valid", async () => {
    answers[CHECK] = { status: 200, body: { valid: false, shouldLogOut: false, organizationName: null } };
    renderFlow("/organization/members?invitation=inv-3");
    await screen.findByRole("dialog", { name: "Invalid Invitation" });
    expect(requests.some((request) => request.path === CONFIRM)).toBe(false);
  });

  it("signs out and keeps the invitation when it belongs to somebody else", async () => {
    answers[CHECK] = { status: 200, body: { valid: true, shouldLogOut: true, organizationName: "Acme" } };
    const session = renderFlow("/organization/members?invitation=inv-4");
    await waitFor(() => expect(session.logout).toHaveBeenCalled());
    await waitFor(() => expect(readCookie(COOKIE.invitationId)).toBe("inv-4"));
    expect(screen.queryByRole("dialog", { name: "Join Organization" })).toBeNull();
  });

  it("picks up an invitation stored in the cookie across sign-in, and consumes it", async () => {
    answers[CHECK] = { status: 200, body: { valid: true, shouldLogOut: false, organizationName: "Beta" } };
    writeCookie(COOKIE.invitationId, "inv-5");
    renderFlow("/organization/members");
    await screen.findByRole("dialog", { name: "Join Organization" });
    expect(requests[0]?.body).toEqual({ invitationId: "inv-5" });
    expect(readCookie(COOKIE.invitationId)).toBeNull();
  });

  it("shows Error Checking Invitations and goes to /login when the check fails", async () => {
    answers[CHECK] = { status: 500, body: { error: "internal-error", message: "boom" } };
    const user = userEvent.setup();
    renderFlow("/organization/members?invitation=inv-6");
    const dialog = await screen.findByRole("dialog", { name: "Error Checking Invitations" });
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await screen.findByText("login");
  });
});

import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { emptyPermissions, fullPermissions, type Organization } from "@prism/contract";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { useState } from "react";
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RedirectIfSignedIn } from "../../../app/guards/require-auth";
import { useWelcomePopup } from "../../../app/shell/welcome-popup";
import { COOKIE, readCookie, writeCookie } from "../../../lib/cookies";
import type { Session } from "../../../lib/session";
import { SessionContext } from "../../../lib/session/session-context";
import { routeCalls, server } from "../../../test/msw";
import { useInvitationFlow } from "./invitation-flow";

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer> = {};
let requests: { path: string; body: Record<string, unknown> }[] = [];

beforeEach(() => {
  localStorage.clear();
  answers = {};
  requests = [];
  writeCookie(COOKIE.invitationId, null);
  requests = routeCalls(({ path }) => {
    const answer = answers[path] ?? { status: 200, body: {} };
    return HttpResponse.json(answer.body as JsonBodyType, { status: answer.status });
  }).sent;
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

function organization(id: string, name: string, permissions: Organization["permissions"]): Organization {
  return {
    id,
    name,
    balance: 0,
    projects: [{ id: `${id}-p1`, name: "Default Project", organizationId: id }],
    permissions,
    properties: { isNew: true },
    billingName: null,
    billingEmail: null,
    taxId: null,
    address: null,
    city: null,
    state: null,
    zipCode: null,
    country: null,
  };
}

/** A new invitee's own empty organization, and the organization that invites them (no payments right). */
const PERSONAL = organization("o1", "Ivan's Organization", fullPermissions(true));
const JOINED = organization("o9", "Acme", {
  ...emptyPermissions(),
  organization: { ...emptyPermissions().organization, billing: true },
});

function renderFlow(url: string, options: { withGuards?: boolean; withWelcome?: boolean } = {}) {
  const calls = {
    selectOrganization: vi.fn(),
    refreshUserInfo: vi.fn(async () => null),
    logout: vi.fn(async () => {}),
  };
  // The session of a user created today, selecting what the flow asks for, as the real provider does.
  function SessionStub() {
    const [selected, setSelected] = useState<Organization | null>(options.withWelcome ? PERSONAL : null);
    const session: Session = {
      status: "signed-in",
      userInfo: options.withWelcome
        ? {
            id: "u1",
            firstName: "Ivan",
            lastName: "Invitee",
            email: "ivan@example.com",
            creationDate: new Date().toISOString(),
            organizations: [PERSONAL, JOINED],
          }
        : null,
      selectedOrganization: selected,
      selectedProject: null,
      selectOrganization: (organizationId) => {
        calls.selectOrganization(organizationId);
        setSelected([PERSONAL, JOINED].find((candidate) => candidate.id === organizationId) ?? null);
      },
      selectProject: vi.fn(),
      setUserInfo: vi.fn(),
      updateUserInfo: vi.fn(),
      refreshUserInfo: calls.refreshUserInfo,
      logout: calls.logout,
    };
    return (
      <SessionContext.Provider value={session}>
        <ModalsProvider>
          <Outlet />
        </ModalsProvider>
      </SessionContext.Provider>
    );
  }
  function Shell() {
    useWelcomePopup();
    return <Outlet />;
  }
  const router = createMemoryRouter(
    [
      {
        element: <SessionStub />,
        children: [
          {
            element: options.withWelcome ? <Shell /> : <Outlet />,
            children: [{ path: "/organization/members", element: <Probe /> }],
          },
          options.withGuards
            ? { element: <RedirectIfSignedIn />, children: [{ path: "/login", element: <div>login</div> }] }
            : { path: "/login", element: <div>login</div> },
          { path: "/home", element: <div>home</div> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { ...calls, router };
}

describe("invitation flow", { timeout: 20_000 }, () => {
  it("asks to join, confirms, reloads the user and selects the joined organization", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: false, organizationName: "Acme", email: "ivan@example.com" },
    };
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
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: false, organizationName: "Acme", email: "ivan@example.com" },
    };
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
    // A newcomer who signed up from the invitation gets their own organization on declining: reloaded.
    await waitFor(() => expect(session.refreshUserInfo).toHaveBeenCalled());
  });

  it("shows Invalid Invitation for an invitation that is no longer valid", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: false, shouldLogOut: false, organizationName: null, email: null },
    };
    renderFlow("/organization/members?invitation=inv-3");
    await screen.findByRole("dialog", { name: "Invalid Invitation" });
    expect(requests.some((request) => request.path === CONFIRM)).toBe(false);
  });

  it("signs out and keeps the invitation when it belongs to somebody else", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: true, organizationName: "Acme", email: "ivan@example.com" },
    };
    const session = renderFlow("/organization/members?invitation=inv-4");
    await waitFor(() => expect(session.logout).toHaveBeenCalled());
    await waitFor(() => expect(readCookie(COOKIE.invitationId)).toBe("inv-4"));
    expect(screen.queryByRole("dialog", { name: "Join Organization" })).toBeNull();
  });

  it("picks up an invitation stored in the cookie across sign-in, and consumes it", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: false, organizationName: "Beta", email: "ivan@example.com" },
    };
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

  it("leads a signed-in user to the login page after Error Checking Invitations, keeping the invitation", async () => {
    server.use(http.post("*", () => HttpResponse.error()));
    const user = userEvent.setup();
    const { router } = renderFlow("/organization/members?invitation=inv-7", { withGuards: true });
    const dialog = await screen.findByRole("dialog", { name: "Error Checking Invitations" });
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    // The login guard lets the signed-in user stay on /login instead of sending them on to /home.
    await screen.findByText("login");
    expect(router.state.location.pathname).toBe("/login");
    // Signing in again retries the invitation.
    expect(readCookie(COOKIE.invitationId)).toBe("inv-7");
  });

  it("does not greet an invitee with the welcome popup while the invitation is answered, nor after joining", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: false, organizationName: "Acme", email: "ivan@example.com" },
    };
    answers[CONFIRM] = { status: 200, body: { organizationId: "o9" } };
    const user = userEvent.setup();
    const session = renderFlow("/organization/members?invitation=inv-8", { withWelcome: true });
    const join = await screen.findByRole("dialog", { name: "Join Organization" });
    expect(screen.queryByText("Welcome to Prism!")).toBeNull();
    await user.click(within(join).getByRole("button", { name: "Yes" }));
    const confirmed = await screen.findByRole("dialog", { name: "Invitation Confirmed" });
    expect(session.selectOrganization).toHaveBeenCalledWith("o9");
    await user.click(within(confirmed).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await new Promise((done) => setTimeout(done, 50));
    expect(screen.queryByText("Welcome to Prism!")).toBeNull();
  });

  it("greets the invitee with the welcome popup after declining, in their own organization", async () => {
    answers[CHECK] = {
      status: 200,
      body: { valid: true, shouldLogOut: false, organizationName: "Acme", email: "ivan@example.com" },
    };
    answers[CONFIRM] = { status: 200, body: { organizationId: "o9" } };
    const user = userEvent.setup();
    renderFlow("/organization/members?invitation=inv-9", { withWelcome: true });
    const join = await screen.findByRole("dialog", { name: "Join Organization" });
    expect(screen.queryByText("Welcome to Prism!")).toBeNull();
    await user.click(within(join).getByRole("button", { name: "No" }));
    expect(await screen.findByText("Welcome to Prism!")).toBeInTheDocument();
  });
});

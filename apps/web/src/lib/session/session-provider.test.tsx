import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { routeCalls, type SentCall } from "../../test/msw";
import { useSession } from "./session-context";
import { SessionProvider } from "./session-provider";

const full = (value: boolean) => ({
  owner: false,
  organization: {
    general: value,
    billing: value,
    payments: value,
    invoices: value,
    playground: value,
    audit: value,
  },
  members: { invite: value, edit: value, delete: value },
  apiKeys: { create: value, delete: value },
  projects: { all: value },
});

const billing = {
  billingName: null,
  billingEmail: null,
  taxId: null,
  address: null,
  city: null,
  state: null,
  zipCode: null,
  country: null,
};

const userInfo = {
  id: "u1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  creationDate: "2024-01-01T00:00:00.000Z",
  organizations: [
    {
      id: "o1",
      name: "Acme",
      balance: 10,
      permissions: full(true),
      properties: { isNew: false },
      ...billing,
      projects: [{ id: "p1", name: "One", organizationId: "o1" }],
    },
    {
      id: "o2",
      name: "Beta",
      balance: 0,
      permissions: full(false),
      properties: { isNew: true },
      ...billing,
      projects: [
        { id: "p2", name: "Two", organizationId: "o2" },
        { id: "p3", name: "Three", organizationId: "o2" },
      ],
    },
  ],
};

let session: ReturnType<typeof useSession> | null = null;

function Probe() {
  session = useSession();
  return (
    <p>
      {session.status}|{session.selectedOrganization?.id ?? "-"}|{session.selectedProject?.id ?? "-"}
    </p>
  );
}

function renderSession() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider>
            <Probe />
          </SessionProvider>
        ),
        children: [{ path: "*", element: null }],
      },
    ],
    { initialEntries: ["/home"] },
  );
  const queryClient = new QueryClient();
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** How the server answers every call from now on; a test swaps it between steps. */
let answer: () => Response = () => HttpResponse.error();
let sent: SentCall[] = [];
const answerAll = (response: () => Response) => {
  answer = response;
};

function clearCookies() {
  for (const name of ["selectedOrganizationId", "selectedProjectId"]) {
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up.
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

beforeEach(() => {
  clearCookies();
  session = null;
  answer = () => HttpResponse.error();
  sent = routeCalls(() => answer()).sent;
});

describe("SessionProvider", () => {
  it("is signed out when users/me fails", async () => {
    answerAll(() => json(401, { error: "unauthenticated", message: "You are not signed in." }));
    renderSession();
    expect(await screen.findByText("signed-out|-|-")).toBeInTheDocument();
  });

  it("selects the cookie's organization when it is the user's, and writes the selection back", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up.
    document.cookie = "selectedOrganizationId=o2; Path=/";
    answerAll(() => json(200, userInfo));
    renderSession();
    expect(await screen.findByText("signed-in|o2|p2")).toBeInTheDocument();
    await waitFor(() => expect(document.cookie).toContain("selectedProjectId=p2"));
  });

  it("selecting an organization selects its first project", async () => {
    answerAll(() => json(200, userInfo));
    renderSession();
    await screen.findByText("signed-in|o1|p1");
    act(() => session?.selectProject("p1"));
    act(() => session?.selectOrganization("o2"));
    expect(await screen.findByText("signed-in|o2|p2")).toBeInTheDocument();
    act(() => session?.selectProject("p3"));
    expect(await screen.findByText("signed-in|o2|p3")).toBeInTheDocument();
  });

  it("logs out even when users/logout fails, and goes to /login", async () => {
    answerAll(() => json(200, userInfo));
    const router = renderSession();
    await screen.findByText("signed-in|o1|p1");
    answerAll(() => HttpResponse.error());
    await act(async () => {
      await session?.logout();
    });
    expect(await screen.findByText("signed-out|-|-")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(sent[1]?.path).toBe("/v1/users/logout");
  });

  it("logs out on a 401 from a session call while signed in", async () => {
    answerAll(() => json(200, userInfo));
    const router = renderSession();
    await screen.findByText("signed-in|o1|p1");
    answerAll(() => json(401, { error: "unauthenticated", message: "You are not signed in." }));
    await act(async () => {
      await session?.refreshUserInfo();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(screen.getByText("signed-out|-|-")).toBeInTheDocument();
  });

  it("keeps the session when an in-session users/me refresh times out or the network fails, then retries", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      answerAll(() => json(200, userInfo));
      const router = renderSession();
      await screen.findByText("signed-in|o1|p1");
      answerAll(() => HttpResponse.error());
      await act(async () => {
        await session?.refreshUserInfo();
      });
      // Still signed in, on the same page, with the same user; the person is told and nothing is lost.
      expect(screen.getByText("signed-in|o1|p1")).toBeInTheDocument();
      expect(router.state.location.pathname).toBe("/home");
      expect(await screen.findByText(/could not refresh your account/)).toBeInTheDocument();
      expect(sent.map((call) => call.path)).not.toContain("/v1/users/logout");

      // Later the server answers again: the retry brings the fresh user (here a second organization's
      // first project became the selection's fallback, proving the new data arrived).
      answerAll(() => json(200, { ...userInfo, organizations: userInfo.organizations.slice(1) }));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
      expect(await screen.findByText("signed-in|o2|p2")).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("remembers the last selected organization across sign-out and sign-in", async () => {
    answerAll(() => json(200, userInfo));
    renderSession();
    await screen.findByText("signed-in|o1|p1");
    act(() => session?.selectOrganization("o2"));
    await screen.findByText("signed-in|o2|p2");
    answerAll(() => json(200, {}));
    await act(async () => {
      await session?.logout();
    });
    await screen.findByText("signed-out|-|-");
    expect(document.cookie).toContain("selectedOrganizationId=o2");

    act(() => session?.setUserInfo(userInfo));
    expect(await screen.findByText("signed-in|o2|p2")).toBeInTheDocument();
  });
});

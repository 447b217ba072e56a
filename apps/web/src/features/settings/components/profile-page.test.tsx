import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import {
  ERROR_DIALOGS,
  LOGOUT_ALL_SESSIONS_CONFIRM,
  PASSWORD_CHANGED,
  PASSWORD_REQUIRED,
  PASSWORD_STRONG,
  PASSWORDS_DO_NOT_MATCH,
  PROFILE_UPDATED,
  REQUIRED_FIELDS_MISSING,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequireAuth } from "../../../app/guards/require-auth";
import { SessionProvider, useSession } from "../../../lib/session";
import { ProfilePage } from "./profile-page";

const userInfo = {
  id: "u1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  creationDate: "2026-01-01T00:00:00.000Z",
  organizations: [],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let answers: Record<string, () => Response> = {};
const fetchMock = vi.fn<typeof fetch>();

function bodiesTo(path: string) {
  return fetchMock.mock.calls
    .filter(([url]) => url === path)
    .map(([, init]) => JSON.parse(String(init?.body ?? "{}")) as unknown);
}

function UserName() {
  const { userInfo: current } = useSession();
  return <p data-testid="user-name">{current ? `${current.firstName} ${current.lastName}` : "signed out"}</p>;
}

async function renderProfile() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider>
            <ModalsProvider>
              <UserName />
              <Outlet />
            </ModalsProvider>
          </SessionProvider>
        ),
        children: [
          { element: <RequireAuth />, children: [{ path: "/settings/profile", element: <ProfilePage /> }] },
          { path: "/login", element: <p>Login page</p> },
        ],
      },
    ],
    { initialEntries: ["/settings/profile"] },
  );
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  await screen.findByDisplayValue("ada@example.com");
  return { user: userEvent.setup(), router };
}

beforeEach(() => {
  answers = {
    "/v1/users/me": () => json(200, userInfo),
    "/v1/users/logout": () => json(401, { error: "unauthenticated", message: "x" }),
  };
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const answer = answers[String(input)];
    return answer ? answer() : json(404, { error: "route-not-found", message: "x" });
  });
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("profile settings: Your Profile", () => {
  it("shows the email read-only and asks for both names", async () => {
    const { user } = await renderProfile();
    const form = screen.getByRole("form", { name: "Your Profile" });
    expect(within(form).getByLabelText("Email")).toHaveAttribute("readonly");
    await user.clear(within(form).getByLabelText(/Last Name/));
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(screen.getByText(REQUIRED_FIELDS_MISSING)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/settings/update-profile")).toHaveLength(0);
  });

  it("saves the names, updates the signed-in user and says 'Profile Updated!'", async () => {
    answers["/v1/users/settings/update-profile"] = () => json(200, {});
    const { user } = await renderProfile();
    const form = screen.getByRole("form", { name: "Your Profile" });
    await user.clear(within(form).getByLabelText(/First Name/));
    await user.type(within(form).getByLabelText(/First Name/), " Augusta ");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(PROFILE_UPDATED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/settings/update-profile")).toEqual([
      { firstName: "Augusta", lastName: "Lovelace" },
    ]);
    expect(screen.getByTestId("user-name")).toHaveTextContent("Augusta Lovelace");
  });

  it("reports a failed save in the 'Error Updating Your Profile' dialog", async () => {
    answers["/v1/users/settings/update-profile"] = () => json(500, { error: "internal-error", message: "x" });
    const { user } = await renderProfile();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(ERROR_DIALOGS.updateProfile.title)).toBeInTheDocument();
    expect(screen.getByText(ERROR_DIALOGS.updateProfile.message)).toBeInTheDocument();
  });
});

describe("profile settings: Change Password", () => {
  it("checks the new password live and says 'Password Changed!'", async () => {
    answers["/v1/users/change-password"] = () => json(200, {});
    const { user } = await renderProfile();
    const form = screen.getByRole("form", { name: "Change Password" });
    await user.click(within(form).getByRole("button", { name: "Change Password" }));
    expect(within(form).getByText(PASSWORD_REQUIRED)).toBeInTheDocument();

    await user.type(within(form).getByLabelText("New Password"), "Str0ng!pass");
    expect(within(form).getByText(PASSWORDS_DO_NOT_MATCH)).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Change Password" }));
    expect(bodiesTo("/v1/users/change-password")).toHaveLength(0);

    await user.type(within(form).getByLabelText("Confirm Password"), "Str0ng!pass");
    expect(within(form).getByText(PASSWORD_STRONG)).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText(PASSWORD_CHANGED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/change-password")).toEqual([{ password: "Str0ng!pass" }]);
    expect(within(form).getByLabelText("New Password")).toHaveValue("");
  });

  it("reports a failure in the 'Error Changing Your Password' dialog", async () => {
    answers["/v1/users/change-password"] = () => json(500, { error: "internal-error", message: "x" });
    const { user } = await renderProfile();
    const form = screen.getByRole("form", { name: "Change Password" });
    await user.type(within(form).getByLabelText("New Password"), "Str0ng!pass");
    await user.type(within(form).getByLabelText("Confirm Password"), "Str0ng!pass{Enter}");
    expect(await screen.findByText(ERROR_DIALOGS.changePassword.title)).toBeInTheDocument();
  });
});

describe("profile settings: Logout from All Sessions", () => {
  it("asks first, then ends every session and signs out here", async () => {
    answers["/v1/users/logout-all-sessions"] = () => json(200, {});
    const { user, router } = await renderProfile();
    await user.click(screen.getByRole("button", { name: "Logout from All Sessions" }));
    expect(await screen.findByText(LOGOUT_ALL_SESSIONS_CONFIRM)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "No" }));
    expect(bodiesTo("/v1/users/logout-all-sessions")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Logout from All Sessions" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    expect(await screen.findByText("Login page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.getByTestId("user-name")).toHaveTextContent("signed out");
    expect(bodiesTo("/v1/users/logout-all-sessions")).toHaveLength(1);
  });

  it("reports a failure in the 'Error Logging Out' dialog and stays signed in", async () => {
    answers["/v1/users/logout-all-sessions"] = () => json(500, { error: "internal-error", message: "x" });
    const { user } = await renderProfile();
    await user.click(screen.getByRole("button", { name: "Logout from All Sessions" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    expect(await screen.findByText(ERROR_DIALOGS.logoutAllSessions.title)).toBeInTheDocument();
    expect(screen.getByTestId("user-name")).toHaveTextContent("Ada Lovelace");
  });
});

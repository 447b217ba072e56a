import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications, notifications } from "@mantine/notifications";
import {
  ACCOUNT_SECURITY_ERROR_DIALOGS,
  ERROR_DIALOGS,
  INVALID_TWO_FACTOR_CODE,
  LOGOUT_ALL_SESSIONS_CONFIRM,
  PASSKEY_ADDED,
  PASSKEY_REMOVED,
  PASSWORD_CHANGED,
  PASSWORD_REQUIRED,
  PASSWORD_STRONG,
  PASSWORDS_DO_NOT_MATCH,
  PROFILE_UPDATED,
  REAUTHENTICATION_DIALOG,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_REGENERATED,
  REGENERATE_RECOVERY_CODES,
  REGENERATE_RECOVERY_CODES_CONFIRM,
  REQUIRED_FIELDS_MISSING,
  SESSION_SIGNED_OUT,
  TWO_FACTOR_CODE_REQUIRED,
  TWO_FACTOR_DISABLED,
  TWO_FACTOR_ENABLED,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const startRegistration = vi.hoisted(() => vi.fn());
vi.mock("@simplewebauthn/browser", () => ({ startRegistration }));

import { RequireAuth } from "../../../app/guards/require-auth";
import { SessionProvider, useSession } from "../../../lib/session";
import { routeCalls } from "../../../test/msw";
import { useReauthenticationDialog } from "../../auth/components/reauthentication-dialog";
import { ProfilePage } from "./profile-page";

const userInfo = {
  id: "u1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  creationDate: "2026-01-01T00:00:00.000Z",
  organizations: [],
};

const devices = [
  {
    id: "s-here",
    browser: "Chrome 126.0",
    os: "Linux",
    ipAddress: "203.0.113.7",
    createdAt: "2026-01-02T09:00:00.000Z",
    lastSeenAt: "2026-01-03T10:00:00.000Z",
    current: true,
  },
  {
    id: "s-phone",
    browser: "Safari 17.5",
    os: "iOS 17.5",
    ipAddress: "198.51.100.20",
    createdAt: "2026-01-01T08:00:00.000Z",
    lastSeenAt: "2026-01-01T08:30:00.000Z",
    current: false,
  },
];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let answers: Record<string, () => Response> = {};
let bodiesTo: (path: string) => unknown[] = () => [];

/** The signed-in shell's answer to `reauthentication-required`, as AppShellLayout mounts it. */
function ReauthenticationHost() {
  useReauthenticationDialog();
  return null;
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
              <ReauthenticationHost />
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
    "/v1/users/two-factor/status": () => json(200, { enabled: false, recoveryCodesLeft: 0 }),
    "/v1/users/sessions/list": () => json(200, { sessions: devices }),
    "/v1/users/passkeys/list": () => json(200, { passkeys: [] }),
  };
  startRegistration.mockReset();
  bodiesTo = routeCalls(({ path }) => {
    const answer = answers[path];
    return answer ? answer() : json(404, { error: "route-not-found", message: "x" });
  }).bodiesTo;
});

afterEach(() => {
  vi.unstubAllGlobals();
  // The toasts live in a module-wide store that shows 5 at a time: each test starts with none.
  notifications.clean();
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

describe("profile settings: Change Password asks who you are (issue 27)", () => {
  const refusal = { error: "reauthentication-required", message: "Please confirm it is you." };

  async function submitNewPassword(user: ReturnType<typeof userEvent.setup>) {
    const form = screen.getByRole("form", { name: "Change Password" });
    await user.type(within(form).getByLabelText("New Password"), "Str0ng!pass");
    await user.type(within(form).getByLabelText("Confirm Password"), "Str0ng!pass{Enter}");
  }

  it("asks for the current password when the server wants a fresh proof, then changes the password", async () => {
    let changeCalls = 0;
    answers["/v1/users/change-password"] = () => (changeCalls++ === 0 ? json(403, refusal) : json(200, {}));
    answers["/v1/users/reauthentication/options"] = () =>
      json(200, { password: true, authenticatorCode: true, passkeyOptions: null });
    let proofs = 0;
    answers["/v1/users/reauthenticate"] = () =>
      proofs++ === 0
        ? json(400, { error: "invalid-password", message: "Invalid password" })
        : json(200, { reauthenticatedUntil: "2026-01-01T00:10:00.000Z" });
    const { user } = await renderProfile();
    await submitNewPassword(user);

    const dialog = await screen.findByRole("dialog", { name: REAUTHENTICATION_DIALOG.title });
    expect(within(dialog).getByText(REAUTHENTICATION_DIALOG.description)).toBeInTheDocument();
    // Both proofs the account has are offered; the password first.
    expect(within(dialog).getByText(REAUTHENTICATION_DIALOG.codeLabel)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(REAUTHENTICATION_DIALOG.passwordLabel), "guess{Enter}");
    expect(await within(dialog).findByText("Invalid password")).toBeInTheDocument();
    const field = within(dialog).getByLabelText(REAUTHENTICATION_DIALOG.passwordLabel);
    await user.clear(field);
    await user.type(field, "Current-passw0rd!{Enter}");

    expect(await screen.findByText(PASSWORD_CHANGED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/reauthenticate")).toEqual([
      { method: "password", password: "guess" },
      { method: "password", password: "Current-passw0rd!" },
    ]);
    // The same call, sent again after the proof.
    expect(bodiesTo("/v1/users/change-password")).toEqual([
      { password: "Str0ng!pass" },
      { password: "Str0ng!pass" },
    ]);
    await vi.waitFor(() =>
      expect(screen.queryByRole("dialog", { name: REAUTHENTICATION_DIALOG.title })).not.toBeInTheDocument(),
    );
  });

  it("takes an authentication code instead of the password", async () => {
    let changeCalls = 0;
    answers["/v1/users/change-password"] = () => (changeCalls++ === 0 ? json(403, refusal) : json(200, {}));
    answers["/v1/users/reauthentication/options"] = () =>
      json(200, { password: true, authenticatorCode: true, passkeyOptions: null });
    answers["/v1/users/reauthenticate"] = () =>
      json(200, { reauthenticatedUntil: "2026-01-01T00:10:00.000Z" });
    const { user } = await renderProfile();
    await submitNewPassword(user);
    const dialog = await screen.findByRole("dialog", { name: REAUTHENTICATION_DIALOG.title });
    await user.click(within(dialog).getByText(REAUTHENTICATION_DIALOG.codeLabel));
    await user.type(
      await within(dialog).findByRole("textbox", { name: REAUTHENTICATION_DIALOG.codeLabel }),
      "123456{Enter}",
    );
    expect(await screen.findByText(PASSWORD_CHANGED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/reauthenticate")).toEqual([{ method: "code", code: "123456" }]);
  });

  it("changes nothing and shows no error when the user cancels", async () => {
    answers["/v1/users/change-password"] = () => json(403, refusal);
    answers["/v1/users/reauthentication/options"] = () =>
      json(200, { password: true, authenticatorCode: false, passkeyOptions: null });
    const { user } = await renderProfile();
    await submitNewPassword(user);
    const dialog = await screen.findByRole("dialog", { name: REAUTHENTICATION_DIALOG.title });
    expect(within(dialog).queryByText(REAUTHENTICATION_DIALOG.codeLabel)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: REAUTHENTICATION_DIALOG.cancel }));
    await vi.waitFor(() =>
      expect(screen.queryByRole("dialog", { name: REAUTHENTICATION_DIALOG.title })).not.toBeInTheDocument(),
    );
    expect(screen.queryByText(ERROR_DIALOGS.changePassword.title)).not.toBeInTheDocument();
    expect(screen.queryByText(PASSWORD_CHANGED)).not.toBeInTheDocument();
    expect(bodiesTo("/v1/users/change-password")).toHaveLength(1);
    expect(bodiesTo("/v1/users/reauthenticate")).toHaveLength(0);
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

describe("profile settings: Two-factor authentication", () => {
  const recoveryCodes = Array.from(
    { length: RECOVERY_CODE_COUNT },
    (_, index) => `abcd${index}-efgh${index}`,
  );

  it("enrols with the QR code and secret, corrects a wrong code, then shows the recovery codes once", async () => {
    answers["/v1/users/two-factor/start"] = () =>
      json(200, {
        secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        otpauthUrl: "otpauth://totp/x",
        qrCodeSvg: "<svg/>",
      });
    answers["/v1/users/two-factor/enable"] = () =>
      json(400, { error: "invalid-two-factor-code", message: INVALID_TWO_FACTOR_CODE });
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Two-factor authentication" });
    await user.click(await within(section).findByRole("button", { name: "Enable" }));
    expect(await within(section).findByAltText("QR code for your authenticator app")).toBeInTheDocument();
    expect(within(section).getByTestId("two-factor-secret")).toHaveTextContent(
      "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    );

    await user.click(within(section).getByRole("button", { name: "Confirm" }));
    expect(within(section).getByText("Authentication code is required")).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/enable")).toHaveLength(0);
    await user.type(within(section).getByLabelText("Authentication code"), "111111");
    await user.click(within(section).getByRole("button", { name: "Confirm" }));
    expect(await within(section).findByText(INVALID_TWO_FACTOR_CODE)).toBeInTheDocument();

    answers["/v1/users/two-factor/enable"] = () => json(200, { recoveryCodes });
    answers["/v1/users/two-factor/status"] = () =>
      json(200, { enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    await user.clear(within(section).getByLabelText("Authentication code"));
    await user.type(within(section).getByLabelText("Authentication code"), "222222");
    await user.click(within(section).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText(TWO_FACTOR_ENABLED)).toBeInTheDocument();
    const shown = within(section).getByTestId("recovery-codes");
    for (const code of recoveryCodes) expect(within(shown).getByText(code)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/enable")).toEqual([{ code: "111111" }, { code: "222222" }]);

    await user.click(within(section).getByRole("button", { name: "I have saved my codes" }));
    expect(within(section).queryByTestId("recovery-codes")).not.toBeInTheDocument();
    expect(await within(section).findByText("Two-factor authentication is on.")).toBeInTheDocument();
    expect(
      within(section).getByText(`${RECOVERY_CODE_COUNT} of ${RECOVERY_CODE_COUNT} recovery codes left.`),
    ).toBeInTheDocument();
  });

  it("disables with a code and says so", async () => {
    answers["/v1/users/two-factor/status"] = () => json(200, { enabled: true, recoveryCodesLeft: 7 });
    answers["/v1/users/two-factor/disable"] = () => json(200, {});
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Two-factor authentication" });
    expect(await within(section).findByText("7 of 10 recovery codes left.")).toBeInTheDocument();
    answers["/v1/users/two-factor/status"] = () => json(200, { enabled: false, recoveryCodesLeft: 0 });
    await user.type(within(section).getByLabelText("Authentication code"), "abcde-fghij");
    await user.click(within(section).getByRole("button", { name: "Disable" }));
    expect(await screen.findByText(TWO_FACTOR_DISABLED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/disable")).toEqual([{ code: "abcde-fghij" }]);
    expect(await within(section).findByRole("button", { name: "Enable" })).toBeInTheDocument();
  });

  it("generates new recovery codes after asking, and shows them once", async () => {
    answers["/v1/users/two-factor/status"] = () => json(200, { enabled: true, recoveryCodesLeft: 2 });
    const fresh = Array.from({ length: RECOVERY_CODE_COUNT }, (_, index) => `new${index}-codes`);
    answers["/v1/users/two-factor/regenerate-recovery-codes"] = () => json(200, { recoveryCodes: fresh });
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Two-factor authentication" });
    expect(await within(section).findByText("2 of 10 recovery codes left.")).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: REGENERATE_RECOVERY_CODES }));
    expect(await screen.findByText(REGENERATE_RECOVERY_CODES_CONFIRM)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes" }));
    expect(await screen.findByText(RECOVERY_CODES_REGENERATED)).toBeInTheDocument();
    const codes = await within(section).findByTestId("recovery-codes");
    for (const code of fresh) expect(within(codes).getByText(code)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/regenerate-recovery-codes")).toEqual([{}]);
  });

  it("asks for a code before disabling, and shows a refused code on the field", async () => {
    answers["/v1/users/two-factor/status"] = () => json(200, { enabled: true, recoveryCodesLeft: 7 });
    answers["/v1/users/two-factor/disable"] = () =>
      json(400, { error: "invalid-two-factor-code", message: INVALID_TWO_FACTOR_CODE });
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Two-factor authentication" });
    expect(await within(section).findByText("7 of 10 recovery codes left.")).toBeInTheDocument();

    await user.click(within(section).getByRole("button", { name: "Disable" }));
    expect(within(section).getByText(TWO_FACTOR_CODE_REQUIRED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/disable")).toHaveLength(0);

    await user.type(within(section).getByLabelText("Authentication code"), "111111");
    expect(within(section).queryByText(TWO_FACTOR_CODE_REQUIRED)).not.toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Disable" }));
    expect(await within(section).findByText(INVALID_TWO_FACTOR_CODE)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/two-factor/disable")).toEqual([{ code: "111111" }]);
  });
});

describe("profile settings: Signed-in devices", () => {
  it("lists each session with browser, OS and IP, and signs out another device after asking", async () => {
    answers["/v1/users/sessions/revoke"] = () => json(200, {});
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Signed-in devices" });
    const rows = await within(section).findAllByTestId("device-row");
    expect(rows).toHaveLength(2);
    const [here, phone] = rows as [HTMLElement, HTMLElement];
    expect(here).toHaveTextContent("Chrome 126.0 on Linux");
    expect(here).toHaveTextContent("This device");
    expect(here).toHaveTextContent("203.0.113.7");
    expect(within(here).queryByRole("button", { name: "Sign out" })).not.toBeInTheDocument();
    expect(phone).toHaveTextContent("Safari 17.5 on iOS 17.5");

    await user.click(within(phone).getByRole("button", { name: "Sign out" }));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    expect(await screen.findByText(SESSION_SIGNED_OUT)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/sessions/revoke")).toEqual([{ sessionId: "s-phone" }]);
    expect(within(section).getAllByTestId("device-row")).toHaveLength(1);
  });
});

describe("profile settings: Passkeys", () => {
  const laptop = {
    id: "p1",
    name: "Work laptop",
    createdAt: "2026-01-02T09:00:00.000Z",
    lastUsedAt: null,
  };

  it("adds a named passkey through the browser's ceremony and lists it", async () => {
    const options = { challenge: "c1", rp: { id: "localhost", name: "Prism" } };
    const attestation = { id: "cred", rawId: "cred", type: "public-key", response: {} };
    answers["/v1/users/passkeys/registration-options"] = () => json(200, { options });
    answers["/v1/users/passkeys/register"] = () => json(200, { passkey: laptop });
    startRegistration.mockResolvedValue(attestation);
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Passkeys" });
    expect(await within(section).findByText("No passkeys yet.")).toBeInTheDocument();

    await user.click(within(section).getByRole("button", { name: "Add Passkey" }));
    expect(within(section).getByText("Please enter a name")).toBeInTheDocument();
    expect(startRegistration).not.toHaveBeenCalled();

    await user.type(within(section).getByLabelText("Passkey name"), " Work laptop ");
    await user.click(within(section).getByRole("button", { name: "Add Passkey" }));
    expect(await screen.findByText(PASSKEY_ADDED)).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: options });
    expect(bodiesTo("/v1/users/passkeys/register")).toEqual([{ name: "Work laptop", response: attestation }]);
    const row = within(section).getByTestId("passkey-row");
    expect(row).toHaveTextContent("Work laptop");
    expect(row).toHaveTextContent("Never");
  });

  it("says nothing when the user closes the browser's prompt", async () => {
    answers["/v1/users/passkeys/registration-options"] = () => json(200, { options: { challenge: "c" } });
    startRegistration.mockRejectedValue(Object.assign(new Error("closed"), { name: "NotAllowedError" }));
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Passkeys" });
    await user.type(within(section).getByLabelText("Passkey name"), "Phone");
    await user.click(within(section).getByRole("button", { name: "Add Passkey" }));
    await vi.waitFor(() => expect(startRegistration).toHaveBeenCalled());
    expect(bodiesTo("/v1/users/passkeys/register")).toHaveLength(0);
    expect(screen.queryByText(ACCOUNT_SECURITY_ERROR_DIALOGS.addPasskey.title)).not.toBeInTheDocument();
  });

  it("removes a passkey after asking", async () => {
    answers["/v1/users/passkeys/list"] = () => json(200, { passkeys: [laptop] });
    answers["/v1/users/passkeys/remove"] = () => json(200, {});
    const { user } = await renderProfile();
    const section = screen.getByRole("region", { name: "Passkeys" });
    await user.click(await within(section).findByRole("button", { name: "Remove Work laptop" }));
    await user.click(await screen.findByRole("button", { name: "Yes, proceed" }));
    expect(await screen.findByText(PASSKEY_REMOVED)).toBeInTheDocument();
    expect(bodiesTo("/v1/users/passkeys/remove")).toEqual([{ passkeyId: "p1" }]);
    expect(await within(section).findByText("No passkeys yet.")).toBeInTheDocument();
  });
});

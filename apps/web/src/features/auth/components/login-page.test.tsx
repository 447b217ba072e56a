import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import {
  EMAIL_ADDRESS_REQUIRED,
  FIRST_NAME_REQUIRED,
  FORGOT_PASSWORD_EMAIL_REQUIRED,
  GENERIC_ERROR,
  INVALID_EMAIL_ADDRESS,
  INVALID_PASSWORD,
  INVALID_TWO_FACTOR_CODE,
  INVALID_VERIFICATION_CODE,
  LAST_NAME_REQUIRED,
  LOGIN_USER_NOT_FOUND,
  PASSKEY_NOT_RECOGNISED,
  PASSWORD_REQUIRED,
  PASSWORD_STRONG,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_WEAK,
  PASSWORDS_DO_NOT_MATCH,
  RECAPTCHA_FAILED,
  RESET_USER_NOT_FOUND,
  SIGN_IN_WITH_PASSKEY,
  TERMS_REQUIRED,
  TWO_FACTOR_CODE_LABEL,
  TWO_FACTOR_CODE_REQUIRED,
  TWO_FACTOR_REQUIRED,
  TWO_FACTOR_SIGN_IN_EXPIRED,
  USER_ALREADY_ACTIVE,
  USER_ALREADY_EXISTS,
  VERIFICATION_CODE_NOT_FOUND,
  VERIFICATION_CODE_REQUIRED,
} from "@prism/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The browser's WebAuthn, as a browser that supports passkeys but not their autofill.
const startAuthentication = vi.hoisted(() => vi.fn());
vi.mock("@simplewebauthn/browser", () => ({
  browserSupportsWebAuthn: () => true,
  browserSupportsWebAuthnAutofill: async () => false,
  startAuthentication,
  WebAuthnAbortService: { cancelCeremony: () => undefined },
}));

import { RedirectIfSignedIn, RequireAuth } from "../../../app/guards/require-auth";
import { SessionProvider } from "../../../lib/session";
import { routeCalls } from "../../../test/msw";
import { LoginPage } from "./login-page";

const userInfo = {
  id: "u1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  creationDate: "2026-01-01T00:00:00.000Z",
  organizations: [],
};

const publicConfig = {
  appEnv: "test",
  productName: "Prism",
  recaptcha: null,
  googleClientId: null,
  github: null,
  payments: { provider: "sandbox", publishableKey: null },
  devMailbox: true,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const failure = (status: number, error: string, message = "server text") => json(status, { error, message });

type Handler = (body: Record<string, unknown>) => Response;

/** Answers per path; users/me says "signed out" and public-config has no third parties unless set. */
let handlers: Record<string, Handler> = {};
let requestsTo: (path: string) => Record<string, unknown>[] = () => [];

function renderLogin(initialEntry = "/login") {
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider>
            <ModalsProvider>
              <Outlet />
            </ModalsProvider>
          </SessionProvider>
        ),
        children: [
          { element: <RedirectIfSignedIn />, children: [{ path: "/login", element: <LoginPage /> }] },
          {
            element: <RequireAuth />,
            children: [
              { path: "/home", element: <p>Home page</p> },
              { path: "/organization/members", element: <p>Members page</p> },
              { path: "/projects/api-keys", element: <p>API keys page</p> },
            ],
          },
        ],
      },
    ],
    { initialEntries: [initialEntry] },
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

function clearCookies() {
  for (const name of ["invitationId", "rememberMe", "selectedOrganizationId", "selectedProjectId"]) {
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up.
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

beforeEach(() => {
  clearCookies();
  sessionStorage.clear();
  handlers = {
    "/v1/users/me": () => failure(401, "unauthenticated"),
    "/v1/public-config": () => json(200, publicConfig),
  };
  requestsTo = routeCalls(({ path, body }) => {
    const handler = handlers[path];
    return handler ? handler(body) : failure(404, "route-not-found");
  }).bodiesTo;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openSignIn() {
  renderLogin();
  await screen.findByRole("heading", { name: "Welcome!" });
  return userEvent.setup();
}

async function signInWith(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Login" }));
}

describe("login screen: sign-in", () => {
  it("shows every sign-in control, without provider buttons when none is configured", async () => {
    await openSignIn();
    expect(screen.getByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    expect(screen.getByLabelText("Remember Me")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign Up" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Recover Password" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Google Sign In" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Github Sign In" })).not.toBeInTheDocument();
  });

  it("shows the GitHub button when GitHub is configured", async () => {
    handlers["/v1/public-config"] = () =>
      json(200, {
        ...publicConfig,
        github: { clientId: "gh", authorizeUrl: "https://github.test/authorize" },
      });
    renderLogin();
    expect(await screen.findByRole("button", { name: "Github Sign In" })).toBeInTheDocument();
  });

  it("asks for the email and password before calling the server", async () => {
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByText(EMAIL_ADDRESS_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByText(INVALID_EMAIL_ADDRESS)).toBeInTheDocument();
    expect(requestsTo("/v1/users/login")).toHaveLength(0);
  });

  it.each([
    ["a wrong password", () => failure(401, "invalid-credentials"), INVALID_PASSWORD],
    ["an unknown email", () => failure(400, "user-not-found"), LOGIN_USER_NOT_FOUND],
    ["a failed bot check", () => failure(491, "recaptcha-failed"), RECAPTCHA_FAILED],
    [
      "rate limiting",
      () => failure(429, "rate-limited", "Please wait 30 seconds."),
      "Please wait 30 seconds.",
    ],
    ["a server error", () => failure(500, "internal-error"), GENERIC_ERROR],
  ])("reports %s with the spec's text", async (_case, answer, message) => {
    handlers["/v1/users/login"] = answer;
    const user = await openSignIn();
    await signInWith(user, "ada@example.com", "whatever");
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.getByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
  });

  it("signs in with Remember Me and lands on /home, sending no bot-check token when none is configured", async () => {
    handlers["/v1/users/login"] = () => json(200, userInfo);
    const user = await openSignIn();
    await user.click(screen.getByLabelText("Remember Me"));
    await signInWith(user, "ada@example.com", "secret");
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(requestsTo("/v1/users/login")).toEqual([
      { email: "ada@example.com", password: "secret", rememberMe: true },
    ]);
    expect(document.cookie).toContain("rememberMe=true");
  });

  it("submits with Enter", async () => {
    handlers["/v1/users/login"] = () => json(200, userInfo);
    const user = await openSignIn();
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "secret{Enter}");
    expect(await screen.findByText("Home page")).toBeInTheDocument();
  });

  it("switches an unverified account to the verification code", async () => {
    handlers["/v1/users/login"] = () => failure(403, "user-not-active");
    const user = await openSignIn();
    await signInWith(user, "ada@example.com", "secret");
    expect(await screen.findByLabelText("Verification Code")).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Go Back" }));
    expect(await screen.findByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
  });

  it("stores an invitation link's id first and leads to the members page after sign-in", async () => {
    handlers["/v1/users/login"] = () => json(200, userInfo);
    renderLogin("/login?invitation=inv-42");
    await screen.findByRole("heading", { name: "Welcome!" });
    expect(document.cookie).toContain("invitationId=inv-42");
    await signInWith(userEvent.setup(), "ada@example.com", "secret");
    expect(await screen.findByText("Members page")).toBeInTheDocument();
  });

  it("sends a signed-in visitor to /home", async () => {
    handlers["/v1/users/me"] = () => json(200, userInfo);
    renderLogin();
    expect(await screen.findByText("Home page")).toBeInTheDocument();
  });

  it("completes a pending GitHub sign-in from the callback", async () => {
    sessionStorage.setItem("pendingGithubSignInCode", "gh-code");
    handlers["/v1/users/github-login-request"] = () => json(200, userInfo);
    renderLogin();
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(requestsTo("/v1/users/github-login-request")).toEqual([
      { credential: "gh-code", rememberMe: false },
    ]);
    expect(sessionStorage.getItem("pendingGithubSignInCode")).toBeNull();
  });

  it("reports GitHub's missing email", async () => {
    sessionStorage.setItem("pendingGithubSignInCode", "gh-code");
    handlers["/v1/users/github-login-request"] = () => failure(400, "email-credentials-not-found");
    renderLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Unable to retrieve email from GitHub. Please try again or contact support.",
    );
  });
});

describe("login screen: sign-up and verification", () => {
  async function openSignUp() {
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await screen.findByLabelText("First Name");
    return user;
  }

  async function fillSignUp(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText("First Name"), "Ada");
    await user.type(screen.getByLabelText("Last Name"), "Lovelace");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    await user.click(screen.getByRole("checkbox", { name: /terms and conditions/ }));
  }

  it("shows the sign-up fields, a terms link and Back to Sign In", async () => {
    const user = await openSignUp();
    expect(screen.getByRole("link", { name: "terms and conditions" })).toHaveAttribute("href", "/terms");
    await user.click(screen.getByRole("button", { name: "Back to Sign In" }));
    expect(await screen.findByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
  });

  it("names every missing field with the spec's messages", async () => {
    const user = await openSignUp();
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    for (const message of [
      FIRST_NAME_REQUIRED,
      LAST_NAME_REQUIRED,
      EMAIL_ADDRESS_REQUIRED,
      PASSWORD_REQUIRED,
      TERMS_REQUIRED,
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    await user.type(screen.getByLabelText("Email"), "ada@");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(screen.getByText(INVALID_EMAIL_ADDRESS)).toBeInTheDocument();
    expect(requestsTo("/v1/users/create")).toHaveLength(0);
  });

  it("checks the password live and clears the message when it is emptied", async () => {
    const user = await openSignUp();
    const feedback = screen.getByTestId("password-feedback");
    const password = screen.getByLabelText("Password");
    await user.type(password, "Ab1!");
    expect(feedback).toHaveTextContent(PASSWORD_TOO_SHORT);
    await user.clear(password);
    await user.type(password, "abcdefgh");
    expect(feedback).toHaveTextContent(PASSWORD_TOO_WEAK);
    await user.clear(password);
    await user.type(password, "Str0ng!pass");
    expect(feedback).toHaveTextContent(PASSWORDS_DO_NOT_MATCH);
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    expect(feedback).toHaveTextContent(PASSWORD_STRONG);
    await user.clear(password);
    expect(feedback).toBeEmptyDOMElement();
  });

  it("refuses a weak password without calling the server", async () => {
    const user = await openSignUp();
    await fillSignUp(user);
    await user.clear(screen.getByLabelText("Password"));
    await user.type(screen.getByLabelText("Password"), "weakpassword");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(requestsTo("/v1/users/create")).toHaveLength(0);
  });

  it("reports an email that is taken", async () => {
    handlers["/v1/users/create"] = () => failure(400, "user-already-exists");
    const user = await openSignUp();
    await fillSignUp(user);
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(USER_ALREADY_EXISTS);
  });

  it("signs up, then verifies the mailed code and lands on /home", async () => {
    handlers["/v1/users/create"] = () => json(200, {});
    let confirmAnswer: Response = failure(400, "invalid-verification-code");
    handlers["/v1/users/confirm"] = () => confirmAnswer;
    const user = await openSignUp();
    await fillSignUp(user);
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(requestsTo("/v1/users/create")).toEqual([
      { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "Str0ng!pass" },
    ]);

    const code = await screen.findByLabelText("Verification Code");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText(VERIFICATION_CODE_REQUIRED)).toBeInTheDocument();

    await user.type(code, "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(INVALID_VERIFICATION_CODE);

    confirmAnswer = failure(400, "verification-code-not-found");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(VERIFICATION_CODE_NOT_FOUND));

    confirmAnswer = json(200, userInfo);
    await user.clear(code);
    await user.type(code, "123456{Enter}");
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(requestsTo("/v1/users/confirm").at(-1)).toEqual({
      email: "ada@example.com",
      verificationCode: "123456",
    });
  });
});

describe("login screen: an already active account", () => {
  it("tells the user to return to sign-in, and Go Back leads there", async () => {
    handlers["/v1/users/create"] = () => json(200, {});
    handlers["/v1/users/confirm"] = () => failure(400, "user-already-active");
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await user.type(await screen.findByLabelText("First Name"), "Ada");
    await user.type(screen.getByLabelText("Last Name"), "Lovelace");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    await user.click(screen.getByRole("checkbox", { name: /terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await user.type(await screen.findByLabelText("Verification Code"), "123456{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(USER_ALREADY_ACTIVE);
    await user.click(screen.getByRole("button", { name: "Go Back" }));
    expect(await screen.findByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
  });
});

describe("login screen: password recovery", () => {
  async function openForgot() {
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: "Recover Password" }));
    await screen.findByRole("button", { name: "Reset Password" });
    return user;
  }

  it("asks for the email with the recovery wording", async () => {
    const user = await openForgot();
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(screen.getByText(FORGOT_PASSWORD_EMAIL_REQUIRED)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Back to Sign In" }));
    expect(await screen.findByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
  });

  it("reports an unknown email", async () => {
    handlers["/v1/users/forgot-password"] = () => failure(400, "user-not-found");
    const user = await openForgot();
    await user.type(screen.getByLabelText("Email"), "nobody@example.com{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(RESET_USER_NOT_FOUND);
  });

  it("resets the password with the mailed code, then signs in with it", async () => {
    handlers["/v1/users/forgot-password"] = () => json(200, {});
    let resetAnswer: Response = failure(400, "invalid-reset-code");
    handlers["/v1/users/reset-password"] = () => resetAnswer;
    handlers["/v1/users/login"] = () => json(200, userInfo);
    const user = await openForgot();
    await user.type(screen.getByLabelText("Email"), "ada@example.com{Enter}");

    await screen.findByRole("button", { name: "Change Password" });
    await user.type(screen.getByLabelText("Verification Code"), "111111");
    await user.type(screen.getByLabelText("New Password"), "N3w!password");
    await user.type(screen.getByLabelText("Confirm Password"), "N3w!password");
    expect(screen.getByTestId("password-feedback")).toHaveTextContent(PASSWORD_STRONG);
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(INVALID_VERIFICATION_CODE);

    resetAnswer = json(200, {});
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(requestsTo("/v1/users/reset-password").at(-1)).toEqual({
      email: "ada@example.com",
      resetCode: "111111",
      password: "N3w!password",
    });
    expect(requestsTo("/v1/users/login")).toEqual([
      { email: "ada@example.com", password: "N3w!password", rememberMe: false },
    ]);
  });
});

describe("login screen: an invitation link", () => {
  it("names the inviting organization and fills in the invited email", async () => {
    handlers["/v1/users/organization-members/check-invitation"] = () =>
      json(200, { valid: true, shouldLogOut: false, organizationName: "Acme", email: "ivan@example.com" });
    renderLogin("/login?invitation=inv-7");
    expect(await screen.findByText("You have been invited to join Acme")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveValue("ivan@example.com"));
    expect(requestsTo("/v1/users/organization-members/check-invitation")).toEqual([
      { invitationId: "inv-7" },
    ]);

    // Signing up from the invitation keeps the address too.
    await userEvent.setup().click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByLabelText("Email")).toHaveValue("ivan@example.com");
    expect(screen.getByText("You have been invited to join Acme")).toBeInTheDocument();
  });

  it("shows a plain login page for an invitation that is no longer valid", async () => {
    handlers["/v1/users/organization-members/check-invitation"] = () =>
      json(200, { valid: false, shouldLogOut: false, organizationName: null, email: null });
    renderLogin("/login?invitation=inv-8");
    await screen.findByRole("heading", { name: "Welcome!" });
    await waitFor(() =>
      expect(requestsTo("/v1/users/organization-members/check-invitation")).toHaveLength(1),
    );
    expect(screen.queryByText(/You have been invited to join/)).toBeNull();
    expect(screen.getByLabelText("Email")).toHaveValue("");
  });
});

describe("login screen: the page asked for", () => {
  it("returns a signed-out visitor to the page they asked for after sign-in", async () => {
    handlers["/v1/users/login"] = () => json(200, userInfo);
    renderLogin("/projects/api-keys");
    await screen.findByRole("heading", { name: "Welcome!" });
    await signInWith(userEvent.setup(), "ada@example.com", "secret");
    expect(await screen.findByText("API keys page")).toBeInTheDocument();
  });

  it("still leads to the members page when an invitation waits", async () => {
    handlers["/v1/users/login"] = () => json(200, userInfo);
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up.
    document.cookie = "invitationId=inv-9; Path=/";
    renderLogin("/projects/api-keys");
    await screen.findByRole("heading", { name: "Welcome!" });
    await signInWith(userEvent.setup(), "ada@example.com", "secret");
    expect(await screen.findByText("Members page")).toBeInTheDocument();
  });
});

describe("login screen: resending the verification code", () => {
  async function reachVerification() {
    handlers["/v1/users/create"] = () => json(200, {});
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderLogin();
    await screen.findByRole("heading", { name: "Welcome!" });
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await user.type(await screen.findByLabelText("First Name"), "Ada");
    await user.type(screen.getByLabelText("Last Name"), "Lovelace");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    await user.click(screen.getByRole("checkbox", { name: /terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await screen.findByLabelText("Verification Code");
    return user;
  }

  it("waits a cooldown, mails a new code, and shows the server's throttling message", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = await reachVerification();
      // The code was just mailed: Resend waits.
      expect(screen.getByRole("button", { name: /^Resend code in \d+s$/ })).toBeDisabled();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      await user.click(screen.getByRole("button", { name: "Resend code" }));
      expect(await screen.findByText("We have sent you a new verification code.")).toBeInTheDocument();
      expect(requestsTo("/v1/users/create")).toHaveLength(2);
      expect(requestsTo("/v1/users/create")[1]).toEqual(requestsTo("/v1/users/create")[0]);
      expect(screen.getByRole("button", { name: /^Resend code in \d+s$/ })).toBeDisabled();

      handlers["/v1/users/create"] = () =>
        failure(429, "rate-limited", "Too many attempts. Please wait 1200 seconds and try again.");
      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      await user.click(screen.getByRole("button", { name: "Resend code" }));
      expect(await screen.findByRole("alert")).toHaveTextContent(
        "Too many attempts. Please wait 1200 seconds and try again.",
      );
      expect(screen.getByRole("button", { name: /^Resend code in \d+s$/ })).toBeDisabled();
      expect(screen.getByLabelText("Verification Code")).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("resends through sign-in for an unverified account that signed in", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      handlers["/v1/users/login"] = () => failure(403, "user-not-active");
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderLogin();
      await screen.findByRole("heading", { name: "Welcome!" });
      await signInWith(user, "ada@example.com", "secret");
      await screen.findByLabelText("Verification Code");
      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      await user.click(screen.getByRole("button", { name: "Resend code" }));
      expect(await screen.findByText("We have sent you a new verification code.")).toBeInTheDocument();
      expect(requestsTo("/v1/users/login")).toHaveLength(2);
      // The notice is the only message: the expected "not active" refusal is no error here.
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
        "We have sent you a new verification code.",
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("login screen: two-factor sign-in", () => {
  it("asks for the authentication code after the password and signs in once it is accepted", async () => {
    handlers["/v1/users/login"] = () => failure(401, "two-factor-required", TWO_FACTOR_REQUIRED);
    handlers["/v1/users/two-factor/verify"] = () =>
      failure(400, "invalid-two-factor-code", INVALID_TWO_FACTOR_CODE);
    const user = await openSignIn();
    await signInWith(user, "ada@example.com", "Sup3r-secret!");
    expect(await screen.findByRole("heading", { name: "Two-factor authentication" })).toBeInTheDocument();
    expect(screen.getByText(TWO_FACTOR_REQUIRED)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText(TWO_FACTOR_CODE_REQUIRED)).toBeInTheDocument();
    expect(requestsTo("/v1/users/two-factor/verify")).toHaveLength(0);

    await user.type(screen.getByLabelText(TWO_FACTOR_CODE_LABEL), "111111");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(INVALID_TWO_FACTOR_CODE);

    handlers["/v1/users/two-factor/verify"] = () => json(200, userInfo);
    await user.clear(screen.getByLabelText(TWO_FACTOR_CODE_LABEL));
    await user.type(screen.getByLabelText(TWO_FACTOR_CODE_LABEL), "abcde-fghij");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(requestsTo("/v1/users/two-factor/verify")).toEqual([{ code: "111111" }, { code: "abcde-fghij" }]);
  });

  it("returns to the password when the open sign-in has expired", async () => {
    handlers["/v1/users/login"] = () => failure(401, "two-factor-required", TWO_FACTOR_REQUIRED);
    handlers["/v1/users/two-factor/verify"] = () =>
      failure(401, "two-factor-sign-in-expired", TWO_FACTOR_SIGN_IN_EXPIRED);
    const user = await openSignIn();
    await signInWith(user, "ada@example.com", "Sup3r-secret!");
    await user.type(await screen.findByLabelText(TWO_FACTOR_CODE_LABEL), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("heading", { name: "Welcome!" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(TWO_FACTOR_SIGN_IN_EXPIRED);
  });
});

describe("login screen: passkeys", () => {
  beforeEach(() => {
    startAuthentication.mockReset();
    handlers["/v1/users/passkeys/authentication-options"] = () => json(200, { options: { challenge: "c1" } });
  });

  it("signs in with a passkey, without password or code", async () => {
    const assertion = { id: "cred", rawId: "cred", type: "public-key", response: {} };
    startAuthentication.mockResolvedValue(assertion);
    handlers["/v1/users/passkeys/sign-in"] = () => json(200, userInfo);
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: SIGN_IN_WITH_PASSKEY }));
    expect(await screen.findByText("Home page")).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: "c1" },
      useBrowserAutofill: false,
    });
    expect(requestsTo("/v1/users/passkeys/sign-in")).toEqual([{ response: assertion, rememberMe: false }]);
  });

  it("says so when the server does not know the passkey, and nothing when the prompt is closed", async () => {
    startAuthentication.mockResolvedValue({ id: "gone", rawId: "gone", type: "public-key", response: {} });
    handlers["/v1/users/passkeys/sign-in"] = () =>
      failure(401, "passkey-not-recognised", PASSKEY_NOT_RECOGNISED);
    const user = await openSignIn();
    await user.click(screen.getByRole("button", { name: SIGN_IN_WITH_PASSKEY }));
    expect(await screen.findByRole("alert")).toHaveTextContent(PASSKEY_NOT_RECOGNISED);

    startAuthentication.mockRejectedValue(Object.assign(new Error("closed"), { name: "NotAllowedError" }));
    await user.click(screen.getByRole("button", { name: SIGN_IN_WITH_PASSKEY }));
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
    expect(requestsTo("/v1/users/passkeys/sign-in")).toHaveLength(1);
  });
});
